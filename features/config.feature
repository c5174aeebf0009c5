@config
Feature: Configuration
  The service takes three settings: how many sessions one message may reference, how many
  candidates a host gets by default, and how many bytes each snapshot may take.

  @SR-CONF-1
  Scenario: Defaults
    When the service is configured with nothing
    Then the configuration is maxReferences 3, candidateLimit 50, maxReferenceBytes 65536

  @SR-CONF-1 @SR-CONF-5
  Scenario: Explicit values, absent or null keys take their default
    When the service is configured with:
      | setting           | value            |
      | maxReferences     | 1                |
      | candidateLimit    | null             |
      | maxReferenceBytes | 9007199254740991 |
    Then the configuration is maxReferences 1, candidateLimit 50, maxReferenceBytes 9007199254740991

  @SR-CONF-2 @SR-CONF-3
  Scenario Outline: <setting> = <value> is rejected
    When the service is configured with:
      | setting   | value   |
      | <setting> | <value> |
    Then it fails with SESSION_REFERENCE_INVALID_CONFIG

    Examples:
      | setting           | value            |
      | maxReferences     | 4                |
      | maxReferences     | 0                |
      | maxReferences     | 2.5              |
      | maxReferences     | "3"              |
      | candidateLimit    | -1               |
      | candidateLimit    | 9007199254740992 |
      | maxReferenceBytes | 0                |
      | maxReferenceBytes | true             |

  @SR-CONF-4 @SR-ERR-2
  Scenario: A null configuration fails without a contract code
    When the service is configured with null
    Then it fails with no code

  @SR-CONF-4
  Scenario: A configuration that is not an object means the defaults
    When the service is configured with 5
    Then the configuration is maxReferences 3, candidateLimit 50, maxReferenceBytes 65536
