@host
Feature: Delivering a message with references to a target agent
  The snapshot is taken when the message is sent and then lives in the target's history:
  the target log holds the context message and the readable direct message, next to each
  other, and nothing that later happens to a source changes them. The two releases differ
  in which of the two comes first.

  Background:
    Given the target agent "me" works in "/repo"
    And a session "me" in "/repo"
    And a session "src" in "/repo" with the conversation:
      | message   | text            |
      | user      | how do I parse? |
      | assistant | Use the parser. |
    And a session "other" with the conversation:
      | message | text      |
      | user    | unrelated |

  @SR-HOST-1 @SR-HOST-2 @SR-HOST-5 @profile-0.0.1
  Scenario Outline: Context first, then the readable message (target <state>)
    Given the target is <state>
    When the user sends "see [[src as the parser]] and [[other]]"
    And afterwards "src" gets the message "new text", "src" is compacted and "other" is deleted
    Then the target log holds:
      | message | text                        |
      | context | snapshots of "src", "other" |
      | direct  | see @the parser and @other  |
    And the target log did not change

    Examples:
      | state   |
      | idle    |
      | running |

  @SR-HOST-1 @SR-HOST-3 @SR-HOST-5 @profile-0.1.0
  Scenario Outline: The readable message, then its context (target <state>)
    Given the target is <state>
    When the user sends "see [[src as the parser]] and [[other]]"
    And afterwards "src" gets the message "new text", "src" is compacted and "other" is deleted
    Then the target log holds:
      | message | text                        |
      | direct  | see @the parser and @other  |
      | context | snapshots of "src", "other" |
    And the target log did not change

    Examples:
      | state   |
      | idle    |
      | running |

  @SR-HOST-4 @profile-0.0.1
  Scenario: A running target claims both messages at its next step
    Given the target is running
    When the user sends "see [[src]]"
    Then both messages waited in the inbox until the next step

  @SR-HOST-8 @profile-0.1.0
  Scenario: A running target's next step prepares the message it claims
    Given the target is running
    When the user sends "see [[src]]"
    Then the message waited in the inbox as typed until the next step

  @SR-HOST-6
  Scenario: A message without mentions is delivered alone
    Given the target is idle
    When the user sends "plain words"
    Then the target log holds:
      | message | text        |
      | direct  | plain words |

  @SR-HOST-7
  Scenario Outline: A failing message is rejected before anything is delivered: <fault>
    Given the target is running
    And a session "broken" that cannot be read
    When the user sends "<text>"
    Then it fails with <code>

    Examples:
      | fault          | text                    | code                                |
      | invalid URI    | @[x](dsh-session:nope)  | SESSION_REFERENCE_INVALID_REFERENCE |
      | failed read    | [[broken]]              | SESSION_REFERENCE_READ_FAILED       |
