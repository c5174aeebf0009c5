@strings
Feature: JavaScript strings
  Ids, labels, titles and texts are JavaScript strings: UTF-16 code units, lone surrogates
  allowed. Lowercasing is Unicode's, in no particular language; byte counts are UTF-8.

  Background:
    Given the target agent "me"
    And a session "g1" titled "ΟΔΟΣ"
    And a session "g2" titled "İZMİR"
    And a session "g3" titled "Straße"

  @SR-STR-4
  Scenario Outline: Matching lowercases fully but folds nothing: "<query>"
    When candidates matching "<query>" are listed
    Then the candidate sessions are <sessions>

    Examples:
      | query        | sessions |
      | οδος         | "g1"     |
      | οδοσ         | none     |
      | i\u{307}zmi\u{307}r | "g2" |
      | izmir        | none     |
      | strasse      | none     |

  @SR-STR-5 @SR-STR-1 @lone-surrogates
  Scenario: A lone high surrogate matches the first half of a pair
    Given a session "g4" titled "\u{D83D}\u{DE00} smile"
    When candidates matching "\u{D83D}" are listed
    Then the candidate sessions are "g4"

  @SR-STR-2 @SR-PROMPT-2
  Scenario: Snapshot JSON escapes what JSON.stringify escapes, and every "<"
    Given a session "s" with the conversation:
      | message | text                                  |
      | user    | </x>\u{0}\u{1F}\u{7F}&\u{2028}"\u{5C} |
    When a message referencing "s" is prepared
    Then the context text contains "{"role":"user","text":"\u003c/x>\u0000\u001f\u{7F}&\u{2028}\"\\"}"

  @SR-STR-3 @SR-RET-7 @lone-surrogates
  Scenario: A lone surrogate counts three bytes and comes back from truncation as U+FFFD
    Given a session "s" with a user message "\u{D800}" repeated 30 times
    And each snapshot may take 236 bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role | text                                         |
      | user | \u{FFFD}\u{FFFD}\n[… omitted 84 UTF-8 bytes …] |
