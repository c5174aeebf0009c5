@mention
Feature: Mentions
  A host writes a reference to a session as a Markdown mention, @[label](uri), and turns
  the mentions of a user's text into readable "@label" text plus structured references.
  In the examples, [[s]] stands for the URI of session "s" and [[s as L]] for the
  mention of session "s" labelled L, as the kit formats them.

  @SR-MENTION-1
  Scenario: A mention escapes backslashes and closing brackets in its label
    When a mention of "s-1" labelled "a]b\c [x](y)" is formatted
    Then the mention is "@[a\]b\\c [x\](y)](dsh-session:InMtMSI)"

  @SR-MENTION-2
  Scenario: A mention without a label shows the session id
    When a mention of "s-1" without a label is formatted
    Then the mention is "@[s-1](dsh-session:InMtMSI)"

  @SR-MENTION-3 @SR-MENTION-4
  Scenario: Mentions become readable text and references, in order, duplicates kept
    When the text "ask [[src as the parser]] and [[src as again]] or [[other]]" is parsed
    Then the readable text is "ask @the parser and @again or @other"
    And the references are:
      | session | label      |
      | src     | the parser |
      | src     | again      |
      | other   | other      |

  @SR-MENTION-4
  Scenario: An escaped label is unescaped
    When the text "@[a\]b\\](dsh-session:InMtMSI)" is parsed
    Then the readable text is "@a]b\"
    And the references are:
      | session | label |
      | s-1     | a]b\  |

  @SR-MENTION-6
  Scenario: A bare URI counts inside a word and ends at the first character outside base64url
    When the text "x[[a]].y" is parsed
    Then the readable text is "x@a.y"

  @SR-MENTION-6
  Scenario: A bare URI run that is not canonical fails the whole text
    When the text "see [[a]]y" is parsed
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

  @SR-MENTION-5
  Scenario Outline: A Markdown mention with a malformed URI fails the whole text: <fault>
    When the text "[[a as ok]] and @[x](<uri>)" is parsed
    Then it fails with SESSION_REFERENCE_INVALID_REFERENCE

    Examples:
      | fault           | uri                   |
      | empty payload   | dsh-session:          |
      | punctuation     | dsh-session:!!        |
      | padding         | dsh-session:ImFiIg==  |
      | not canonical   | dsh-session:ImFiIh    |

  @SR-MENTION-7
  Scenario Outline: The scheme without a payload is ordinary discussion text: <text>
    When the text "<text>" is parsed
    Then the readable text is "<text>"
    And there are no references

    Examples:
      | text                        |
      | about dsh-session: links    |
      | dsh-session:!? or dsh-session:. |

  @SR-MENTION-8
  Scenario Outline: Text that only looks like a mention is not one, but its bare URI is: <fault>
    When the text "<text>" is parsed
    Then the readable text is "<readable>"
    And the references are:
      | session | label |
      | a       | a     |

    Examples:
      | fault                  | text               | readable      |
      | unclosed parenthesis   | @[x]([[a]]         | @[x](@a       |
      | space inside the URI   | @[x]([[a]] y)      | @[x](@a y)    |
      | no-break space in URI  | @[x]([[a]]\u{A0})  | @[x](@a\u{A0}) |
      | unclosed label         | @[x([[a]])         | @[x(@a)       |
      # In a table cell "\\" is one backslash: "\\\\n" is a backslash before a line feed.
      | escaped line feed      | @[x\\\\n]([[a]])        | @[x\\\\n](@a)        |
      | escaped line separator | @[x\\\\u{2028}]([[a]])  | @[x\\\\u{2028}](@a)  |

  @SR-MENTION-9
  Scenario: Text without mentions comes back unchanged
    When the text "just text @[x](http://example.com)" is parsed
    Then the readable text is "just text @[x](http://example.com)"
    And there are no references

  @SR-MENTION-9 @SR-STR-1 @lone-surrogates
  Scenario: A label ending in half a surrogate pair joins the half that follows the mention
    When the text "[[a as a\u{D83D}]]\u{DE00}" is parsed
    Then the readable text is "@a😀"
