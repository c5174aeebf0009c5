@projection
Feature: What a snapshot shows
  A snapshot shows the source's current conversation: what the user typed, what the
  assistant answered, and compact checkpoints; never tools, reasoning, plugin messages or
  earlier snapshots.

  Background:
    Given the target agent "me"

  @SR-PROJ-1 @SR-PROJ-2 @SR-PROJ-3 @SR-PROJ-5 @SR-PROJ-6 @SR-QUERY-3
  Scenario: Only direct user messages, assistant text and checkpoints are kept
    Given a session "s" with the conversation:
      | message         | text                    |
      | user            | old question            |
      | checkpoint      | Summary: fixed it       |
      | plugin          | plugin noise            |
      | snapshot        | an earlier snapshot     |
      | reasoning       | hidden thoughts         |
      | assistant       | Done.                   |
      | tool result     | file body               |
      | tool call       | read                    |
      | user            | thanks                  |
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role      | text              |
      | user      | old question      |
      | user      | Summary: fixed it |
      | assistant | Done.             |
      | user      | thanks            |
    And the snapshot of "s" records:
      | field            | value |
      | compacted        | true  |
      | originalMessages | 4     |

  @SR-PROJ-4
  Scenario: Text blocks are joined by newlines; other blocks and empty texts are skipped
    Given a session "s" with a user message made of the blocks:
      | block | text |
      | text  | a    |
      | image |      |
      | text  |      |
      | text  | b    |
    And the session "s" continues with the conversation:
      | message    | text |
      | user       |      |
      | checkpoint |      |
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role | text  |
      | user | a\n\nb |
    And the snapshot of "s" records:
      | field     | value |
      | compacted | false |

  @SR-PROJ-7
  Scenario: A session without a surface has no capture sequence and no messages
    Given a session "s" without a surface
    When a message referencing "s" is prepared
    Then the context text contains "{"sessionId":"s","label":"s","cwd":null,"capturedThroughSeq":null,"conversation":[]}"

  @SR-STR-6 @SR-PROJ-7
  Scenario Outline: A capture sequence is written as JavaScript writes the number <sequence>
    Given a session "s" with the conversation:
      | message | text  |
      | user    | hello |
    And the session "s" was captured through sequence <sequence>
    When a message referencing "s" is prepared
    Then the context text contains ""capturedThroughSeq":<written>,"

    Examples:
      | sequence              | written                 |
      | 42                    | 42                      |
      | 1000000               | 1000000                 |
      | 123456789012345678901 | 123456789012345680000   |
      | 1e21                  | 1e+21                   |
      | 0.000001              | 0.000001                |
      | 0.0000001             | 1e-7                    |
      | 0.30000000000000004   | 0.30000000000000004     |
      | -0                    | 0                       |
      | 5e-324                | 5e-324                  |

  @SR-QUERY-3
  Scenario: A surface event outside the session-query contract makes preparation fail
    Given a session "s" with an event of type "weird/event"
    When a message referencing "s" is prepared
    Then it fails
