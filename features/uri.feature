@uri
Feature: Session URIs
  A session is named in text by a URI that carries its id losslessly:
  dsh-session: followed by the unpadded base64url form of the id as a JSON string.
  Only the one canonical spelling of an id is accepted.

  @SR-URI-1
  Scenario: An id becomes the base64url of its JSON string
    When the id "a" is encoded
    Then the URI is "dsh-session:ImEi"

  @SR-URI-1 @SR-URI-2
  Scenario: The empty id is a valid id
    When the id "" is encoded
    Then the URI is "dsh-session:IiI"
    And decoding that URI gives back the id ""

  @SR-URI-2 @SR-STR-1 @lone-surrogates
  Scenario Outline: Every JavaScript string round-trips: <case>
    When the id "<id>" is encoded
    Then decoding that URI gives back the id "<id>"

    Examples:
      | case              | id                          |
      | ASCII             | src-1                       |
      | Greek             | ΣΊΣΥΦΟΣ                     |
      | emoji             | 😀                          |
      | JSON-hostile      | \u{22}}\u{5C}<\u{0}\u{2028} |
      | lone high half    | a\u{D800}b                  |
      | lone low half     | \u{DC00}                    |
      | reversed pair     | \u{DE00}\u{D83D}            |

  @SR-URI-3 @SR-URI-4
  Scenario Outline: A URI that is not canonical is rejected: <fault>
    When the URI "<uri>" is decoded
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

    Examples:
      | fault                      | uri                    |
      | no payload                 | dsh-session:           |
      | uppercase scheme           | DSH-SESSION:ImEi       |
      | padding                    | dsh-session:ImFiIg==   |
      | standard base64 alphabet   | dsh-session:Ij4+Ig     |
      | space in the payload       | dsh-session:Im Ei      |
      | stray bits in the last one | dsh-session:ImFiIh     |

  @SR-URI-5 @SR-URI-6
  Scenario Outline: A payload that is not the id's own JSON string is rejected: <fault>
    When the URI carrying the JSON text '<json>' is decoded
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

    Examples:
      | fault                     | json       |
      | a number                  | 42         |
      | null                      | null       |
      | not JSON                  | abc        |
      | a non-minimal escape      | "\u0061"   |
      | an uppercase surrogate    | "\uD800"   |
      | an escaped slash          | "a\/b"     |
      | whitespace around it      | \u{20}"a"\u{20} |
