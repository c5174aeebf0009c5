@retention
Feature: Fitting a snapshot into its budget
  Each snapshot, serialized, may take at most maxReferenceBytes. Older messages go first,
  checkpoints and the newest message stay, and the longest text is then cut in the middle
  with an exact notice of what was left out. In these examples a session "s" without a
  working directory serializes to 106 bytes with one empty user message.

  # Where the budgets come from: a snapshot of "s" serializes as
  #   {"sessionId":"s","label":"s","cwd":null,"capturedThroughSeq":K,"conversation":[…]}
  # which is 80 bytes plus the digits of K (the steps' capturedThroughSeq is the number of
  # events: one digit here), plus 25 bytes per user message ({"role":"user","text":""}),
  # 30 per assistant message, 1 per comma between messages, plus each text's serialized bytes
  # (a "\n" takes 2, a "<" 6, a "…" 3). One empty user message: 80 + 1 + 25 = 106.

  Background:
    Given the target agent "me"

  # 106 + 10 bytes of text = 116: the budget is the size, exactly.
  @SR-RET-1
  Scenario: A snapshot that fits is untouched
    Given a session "s" with the conversation:
      | message | text       |
      | user    | 0123456789 |
    And each snapshot may take 116 bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role | text       |
      | user | 0123456789 |
    And the snapshot of "s" records:
      | field     | value |
      | truncated | false |

  # Four messages of 20 bytes: 80 + 1 + (25 + 30 + 25 + 30) + 3 commas + 80 = 274. Dropping
  # the first leaves 228, still over 191; dropping the second leaves 177. omittedBytes is the
  # two dropped texts, 20 + 20.
  @SR-RET-2 @SR-RET-10
  Scenario: The oldest messages are dropped first
    Given a session "s" with the conversation:
      | message   | text                 |
      | user      | first message ...... |
      | assistant | second message ..... |
      | user      | third message ...... |
      | assistant | fourth message ..... |
    And each snapshot may take 191 bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role      | text                 |
      | user      | third message ...... |
      | assistant | fourth message ..... |
    And the snapshot of "s" records:
      | field            | value |
      | originalMessages | 4     |
      | retainedMessages | 2     |
      | omittedMessages  | 2     |
      | omittedBytes     | 40    |
      | truncated        | true  |

  # 269 bytes; dropping the first user message leaves 223, still over 186; the checkpoint is
  # passed over and the assistant message dropped: 172.
  @SR-RET-3
  Scenario: A checkpoint is never dropped
    Given a session "s" with the conversation:
      | message    | text                 |
      | user       | first message ...... |
      | checkpoint | checkpoint summary.. |
      | assistant  | third message ...... |
      | user       | fourth message ..... |
    And each snapshot may take 186 bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role | text                 |
      | user | checkpoint summary.. |
      | user | fourth message ..... |

  # 213 bytes in all; dropping "short" leaves 182, 16 over 166, so the 71-byte answer gets a
  # target of 55. The first cut keeps 22 bytes (55 with its 33-byte notice), but the notice's
  # "\n" serializes to 2 bytes: 167, one over. The second cut, from the original, gets a
  # target of 54 and keeps 21 bytes: the head "long answer" (⌈21/2⌉ = 11 bytes) and the tail
  # "ong answer" (⌊21/2⌋ = 10), joined with nothing between, hence "answerong"; 71 − 21 = 50
  # bytes omitted, and the text's 54 bytes (55 serialized) make the size 166 exactly.
  @SR-RET-4 @SR-RET-6 @SR-RET-9
  Scenario: The newest message stays, cut in the middle with an exact notice
    Given a session "s" with the conversation:
      | message   | text  |
      | user      | short |
      | assistant | long answer long answer long answer long answer long answer long answer |
    And each snapshot may take 166 bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role      | text                                              |
      | assistant | long answerong answer\n[… omitted 50 UTF-8 bytes …] |

  # 106 is the size with the text empty (see above): any notice is longer than the 0-byte
  # target, so the text becomes "" with its 10 bytes omitted.
  @SR-RET-5 @SR-RET-6
  Scenario: At exactly the fixed size every text is emptied
    Given a session "s" with the conversation:
      | message | text       |
      | user    | 0123456789 |
    And each snapshot may take 106 bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role | text |
      | user |      |
    And the snapshot of "s" records:
      | field        | value |
      | omittedBytes | 10    |
      | truncated    | true  |

  # 105 is one byte below the size with the text empty: nothing is left to cut.
  @SR-RET-5
  Scenario: One byte below the fixed size the source cannot fit
    Given a session "s" with the conversation:
      | message | text       |
      | user    | 0123456789 |
    And each snapshot may take 105 bytes
    When a message referencing "s" is prepared
    Then it fails with SESSION_REFERENCE_BUDGET_EXCEEDED

  # The text is 60 bytes ("aé€😀" is 1 + 2 + 3 + 4 bytes, six times), 166 of size, so a
  # budget B gives a target of B − 106. Head and tail keep whole characters only, so the kept
  # bytes jump: 1 ("a"), 3 ("aé"), 7 ("aé" and the tail "😀"), 10 ("aé€" and "😀"); each
  # text, with its notice and the notice's "\n" serialized as 2 bytes, makes the size B.
  @SR-RET-7 @SR-RET-9
  Scenario Outline: A cut never splits a character (<budget> bytes)
    Given a session "s" with a user message "aé€😀" repeated 6 times
    And each snapshot may take <budget> bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role | text   |
      | user | <text> |

    Examples:
      | budget | text                                   |
      | 141    | a\n[… omitted 59 UTF-8 bytes …]         |
      | 143    | aé\n[… omitted 57 UTF-8 bytes …]        |
      | 147    | aé😀\n[… omitted 53 UTF-8 bytes …]      |
      | 150    | aé€😀\n[… omitted 50 UTF-8 bytes …]     |

  # 70 bytes of text, 176 of size: the target is 43. The first cut keeps 13 bytes
  # ("abcdefg", then U+FEFF and "xyz"), 43 bytes with its notice but 44 serialized: one over.
  # The second cut (target 42) keeps 12: head "abcdef", tail U+FEFF "xyz", whose U+FEFF the
  # decoder drops; 70 − 12 = 58 omitted, and 42 bytes of text (43 serialized) make 149.
  @SR-RET-8
  Scenario: A byte order mark where the tail starts vanishes but counts as kept
    Given a session "s" with the conversation:
      | message | text                                                                   |
      | user    | abcdefghabcdefghabcdefghabcdefghabcdefghabcdefghabcdefghabcdefgh\u{FEFF}xyz |
    And each snapshot may take 149 bytes
    When a message referencing "s" is prepared
    Then the snapshot of "s" holds:
      | role | text                              |
      | user | abcdefxyz\n[… omitted 58 UTF-8 bytes …] |
