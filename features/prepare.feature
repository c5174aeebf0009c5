@prepare
Feature: Preparing a message that references sessions
  Before a message enters the target's history, the service reads every referenced
  session once and returns the content plus one context message holding their snapshots.

  Background:
    Given the target agent "me" works in "/repo"
    And a session "me" in "/repo"
    And a session "a" in "/a" with the conversation:
      | message   | text         |
      | user      | hello from a |
      | assistant | hi a         |
    And a session "b" with the conversation:
      | message | text         |
      | user    | hello from b |
    And a session "c" with the conversation:
      | message   | text   |
      | assistant | c says |
    And a session "d" with the conversation:
      | message | text |
      | user    | d    |
    And a session "broken" that cannot be read

  @SR-PREP-3 @SR-PREP-6 @SR-PROMPT-5 @SR-QUERY-2
  Scenario: Repeated mentions collapse to the first, with its label, in first-mention order
    When a message with these references is prepared:
      | session | label |
      | b       |       |
      | a       | A1    |
      | b       | B2    |
      | a       | A2    |
    Then the sessions read are "b", "a"
    And the snapshots are, in order:
      | session | label |
      | b       | b     |
      | a       | A1    |

  @SR-PREP-4
  Scenario: Three distinct sources are the most one message may reference
    When a message with these references is prepared:
      | session |
      | a       |
      | b       |
      | a       |
      | c       |
    Then the snapshots are, in order:
      | session | label |
      | a       | a     |
      | b       | b     |
      | c       | c     |

  @SR-PREP-4
  Scenario: A fourth distinct source is too many, and nothing is read
    When a message with these references is prepared:
      | session |
      | a       |
      | b       |
      | c       |
      | d       |
    Then it fails with SESSION_REFERENCE_TOO_MANY
    And no session was read

  @SR-PREP-4 @SR-CONF-1
  Scenario: The configured maximum applies
    Given at most 1 source may be referenced
    When a message with these references is prepared:
      | session |
      | a       |
      | b       |
    Then it fails with SESSION_REFERENCE_TOO_MANY

  @SR-PREP-2
  Scenario: A message may not reference its own session
    When a message referencing "me" is prepared
    Then it fails with SESSION_REFERENCE_SELF_REFERENCE
    And no session was read

  @SR-PREP-1
  Scenario Outline: A malformed reference is rejected: <fault>
    When a message with the reference <reference> is prepared
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE
    And no session was read

    Examples:
      | fault               | reference                    |
      | null                | null                         |
      | a bare string       | "a"                          |
      | no session id       | {"label":"x"}                |
      | a numeric id        | {"sessionId":1}              |
      | a null label        | {"sessionId":"a","label":null} |

  @SR-PREP-5
  Scenario: A message without references gets no context and reads nothing
    When a message with no references is prepared
    Then the prepared message has no context
    And no session was read

  @SR-PREP-7
  Scenario: A failed read fails the whole message
    When a message with these references is prepared:
      | session |
      | a       |
      | broken  |
    Then it fails with SESSION_REFERENCE_READ_FAILED
    And the sessions read are "a", "broken"

  @SR-PREP-7
  Scenario: An unknown session is a failed read
    When a message referencing "nobody" is prepared
    Then it fails with SESSION_REFERENCE_READ_FAILED

  @SR-PREP-8
  Scenario: The content comes back as given
    When a message with the content {"nested":[1,"two",{"three":null}]} referencing "a" is prepared
    Then the content comes back unchanged

  # "d" fits (107 bytes: 80 + 1 digit + 25 + its 1-byte text). "a" does not: after its user
  # message is dropped and "hi a" emptied, an empty assistant message alone takes
  # 80 + 1 + 30 = 111 bytes, over 108.
  @SR-PREP-9
  Scenario: One source over its budget fails the whole message
    Given each snapshot may take 108 bytes
    When a message with these references is prepared:
      | session |
      | d       |
      | a       |
    Then it fails with SESSION_REFERENCE_BUDGET_EXCEEDED

  @SR-PREP-10 @SR-PROMPT-3 @SR-PROMPT-6
  Scenario: The context is one sourced user message
    When a message referencing "a" is prepared
    Then the context message has the keys source, content and role, in that order
    And its source is a session-reference recall of version 1
