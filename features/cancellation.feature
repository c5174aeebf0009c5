@cancellation
Feature: Cancellation
  A host may abort a preparation or a candidate listing, for example when the user closes
  the prompt. An abort is reported as SESSION_REFERENCE_CANCELLED, but only where there is
  still work to abandon.

  Background:
    Given the target agent "me"
    And a session "a" with the conversation:
      | message | text |
      | user    | hi   |
    And a session "b" with the conversation:
      | message | text  |
      | user    | hello |
    And a session "broken" that cannot be read

  @SR-CANCEL-1
  Scenario: An aborted preparation reads nothing
    Given the host aborts the request before it starts
    When a message referencing "a" is prepared
    Then it fails with SESSION_REFERENCE_CANCELLED
    And no session was read

  @SR-CANCEL-2 @SR-PREP-5
  Scenario: A message without references succeeds even when already aborted
    Given the host aborts the request before it starts
    When a message with no references is prepared
    Then the prepared message has no context

  @SR-CANCEL-3
  Scenario: A self-reference is reported even when already aborted
    Given the host aborts the request before it starts
    When a message referencing "me" is prepared
    Then it fails with SESSION_REFERENCE_SELF_REFERENCE

  @SR-CANCEL-4
  Scenario: An abort while sessions are read
    Given the host aborts the request while sessions are read
    When a message referencing "a" and "b" is prepared
    Then it fails with SESSION_REFERENCE_CANCELLED
    And the sessions read are "a", "b"

  @SR-CANCEL-4 @SR-PREP-7
  Scenario: A read that fails before the abort wins
    Given the host aborts the request while sessions are read
    When a message referencing "a" and "broken" is prepared
    Then it fails with SESSION_REFERENCE_READ_FAILED

  @SR-CANCEL-5
  Scenario: An aborted candidate listing does not list, even when listing would fail
    Given the session listing fails
    And the host aborts the request before it starts
    When candidates are listed
    Then it fails with SESSION_REFERENCE_CANCELLED

  @SR-CANCEL-7 @SR-CAND-4
  Scenario: An invalid limit is reported even when the listing is already aborted
    Given the host aborts the request before it starts
    When at most 0 candidates matching "s" are listed
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

  @SR-CANCEL-6
  Scenario: An abort while sessions are listed
    Given the host aborts the request while sessions are read
    When candidates are listed
    Then it fails with SESSION_REFERENCE_CANCELLED
