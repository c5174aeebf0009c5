@candidates
Feature: Candidates
  A host offering mention completion asks for candidates: other sessions, ranked by working
  directory affinity, labelled by their titles, optionally filtered by a query.

  Background:
    Given the target agent "me" works in "/repo"
    And a session "n1" in "/other" titled "Other"
    And a session "n2" whose title cannot be read
    And a session "me" in "/repo"
    And a session "n3" in "/repo" titled ""
    And a session "n4" in "/repo" titled "ΣΊΣΥΦΟΣ"
    And a session "n5" with the conversation:
      | message | text             |
      | user    | needle in a body |

  @SR-CAND-1 @SR-CAND-2 @SR-CAND-5 @SR-CAND-9 @SR-QUERY-4
  Scenario: Same directory first, then no directory, then elsewhere; listing order within
    When candidates are listed
    Then the candidates are:
      | session | label   | cwd    |
      | n3      |         | /repo  |
      | n4      | ΣΊΣΥΦΟΣ | /repo  |
      | n2      | n2      |        |
      | n5      | n5      |        |
      | n1      | Other   | /other |

  @SR-CAND-3 @SR-CAND-6 @SR-QUERY-1
  Scenario: Without a query only the limited set's titles are read
    When at most 2 candidates are listed
    Then the candidates are:
      | session | label   | cwd   |
      | n3      |         | /repo |
      | n4      | ΣΊΣΥΦΟΣ | /repo |
    And titles were read for "n3", "n4"

  @SR-CAND-7 @SR-CAND-8 @SR-CAND-12 @SR-STR-4
  Scenario: A query reads every title, then filters case-insensitively, then limits
    When at most 1 candidates matching "σίσυφος" are listed
    Then the candidates are:
      | session | label   | cwd   |
      | n4      | ΣΊΣΥΦΟΣ | /repo |
    And titles were read for "n1", "n2", "n3", "n4", "n5"

  @SR-CAND-8
  Scenario Outline: A query matches the id, the cwd or the label, never a message body: <query>
    When candidates matching "<query>" are listed
    Then the candidate sessions are <sessions>

    Examples:
      | query  | sessions   |
      | N2     | "n2"       |
      | /REPO  | "n3", "n4" |
      | other  | "n1"       |
      | needle | none       |
      | me     | none       |

  @SR-CAND-4
  Scenario Outline: A limit of <limit> is rejected
    When at most <limit> candidates are listed
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

    Examples:
      | limit |
      | 0     |
      | -1    |
      | 2.5   |
      | "2"   |
      | null  |

  @SR-CAND-10 @SR-ERR-2
  Scenario: A listing failure passes through without a contract code
    Given the session listing fails
    When candidates are listed
    Then it fails with no code

  @SR-CAND-11
  Scenario: A query that is not a string fails without a contract code
    When candidates matching the number 42 are listed
    Then it fails with no code

  @SR-CAND-2
  Scenario: An agent without a directory ranks directory-less sessions first
    Given the target agent "me" works nowhere
    When candidates are listed
    Then the candidate sessions are "n2", "n5", "n1", "n3", "n4"
