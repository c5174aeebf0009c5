@errors
Feature: Error codes and their precedence
  Every contract failure carries one of seven stable codes a host can route on; the
  message wording is the implementation's. When several things are wrong, the same one
  is reported by every implementation.

  Background:
    Given the target agent "me"
    And a session "a" with the conversation:
      | message | text |
      | user    | hi   |
    And a session "b" that cannot be read

  @SR-ERR-1
  Scenario Outline: <code>
    When <situation>
    Then it fails with <code>

    Examples:
      | code                                | situation                                         |
      | SESSION_REFERENCE_INVALID_CONFIG    | the service is configured with 0 references at most |
      | SESSION_REFERENCE_INVALID_REFERENCE | the URI "dsh-session:" is decoded                  |
      | SESSION_REFERENCE_SELF_REFERENCE    | a message referencing "me" is prepared             |
      | SESSION_REFERENCE_TOO_MANY          | a message referencing "a", "b", "c" and "d" is prepared |
      | SESSION_REFERENCE_READ_FAILED       | a message referencing "b" is prepared              |
      | SESSION_REFERENCE_BUDGET_EXCEEDED   | a message referencing "a" is prepared with 10 bytes per snapshot |
      | SESSION_REFERENCE_CANCELLED         | a message referencing "a" is prepared after the host aborted |

  @SR-ERR-3
  Scenario: A malformed reference before a self-reference is what is reported
    When a message with these references is prepared:
      | session | label |
      | (none)  | x     |
      | me      |       |
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

  @SR-ERR-3
  Scenario: A self-reference after too many sources is what is reported
    When a message referencing "a", "b", "c", "d" and "me" is prepared
    Then it fails with SESSION_REFERENCE_SELF_REFERENCE

  @SR-ERR-3 @SR-CANCEL-3
  Scenario: Too many sources are reported even when the host already aborted
    Given the host aborts the request before it starts
    When a message referencing "a", "b", "c" and "d" is prepared
    Then it fails with SESSION_REFERENCE_TOO_MANY

  @SR-ERR-4 @SR-CANCEL-7
  Scenario: An invalid limit is reported before the query type and cancellation
    Given the host aborts the request before it starts
    When at most 0 candidates matching the number 42 are listed
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

  @SR-ERR-5
  Scenario: An invalid configuration is reported before anything else
    Given each snapshot may take 0 bytes
    When a message referencing "me" is prepared
    Then it fails with SESSION_REFERENCE_INVALID_CONFIG
