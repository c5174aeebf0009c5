Feature: verify-translation-pairing keeps translated READMEs a confirmed pair
  A README.i18n.yaml beside README.md and README.zh.md records the git blob hash of
  each side as of the last state a person confirmed consistent. The tool says, for
  each pair, whether that is still so, and re-records a pair once a person confirmed it.

  Background:
    Given a git repository
    And the file "docs/README.md" contains "# Guide\n"
    And the file "docs/README.zh.md" contains "# 指南\n"

  Scenario: a new translation is reported until its pair is recorded
    When I run "verify-translation-pairing"
    Then the exit status is 1
    And the output contains "unrecorded    docs/README.zh.md is beside docs/README.md with no record"
    When I run "verify-translation-pairing --write docs/README.md"
    Then the exit status is 0
    And the record "docs/README.i18n.yaml" holds the git hash of "docs/README.md"
    And the record "docs/README.i18n.yaml" holds the git hash of "docs/README.zh.md"
    When I run "verify-translation-pairing"
    Then the exit status is 0
    And the output is:
      """
      confirmed     docs/README.md <-> docs/README.zh.md (docs/README.i18n.yaml)
      1 pair: 1 confirmed, 0 not confirmed
      """

  Scenario: editing one side names the side to bring along
    Given the pair in "docs" is recorded
    And the file "docs/README.md" contains "# Guide\n\nA new paragraph.\n"
    When I run "verify-translation-pairing"
    Then the exit status is 1
    And the output contains "changed       docs/README.md changed since confirmation; bring docs/README.zh.md along, then re-record with: verify-translation-pairing --write docs/README.md"
    And the output contains "1 pair: 0 confirmed, 1 not confirmed"

  Scenario: re-recording keeps the record's comments and key order
    Given the file "docs/README.i18n.yaml" contains "# Keep this header.\nREADME.zh.md: 0000000000000000000000000000000000000000\nREADME.md: 0000000000000000000000000000000000000000\n"
    When I run "verify-translation-pairing docs/README.i18n.yaml"
    Then the exit status is 1
    And the output contains "both-changed  docs/README.zh.md and docs/README.md both changed since confirmation"
    When I run "verify-translation-pairing --write docs/README.i18n.yaml"
    Then the exit status is 0
    And the record "docs/README.i18n.yaml" starts with "# Keep this header.\nREADME.zh.md: "
    And the record "docs/README.i18n.yaml" holds the git hash of "docs/README.zh.md"

  Scenario: a missing side is reported and cannot be recorded
    Given the pair in "docs" is recorded
    And the file "docs/README.zh.md" is deleted
    When I run "verify-translation-pairing --write docs/README.md"
    Then the exit status is 1
    And the output contains "docs/README.zh.md is missing (named in docs/README.i18n.yaml)"
    And the record "docs/README.i18n.yaml" is unchanged

  Scenario Outline: a record that names a path outside its folder is malformed
    Given the file "docs/README.i18n.yaml" contains "README.md: 0000000000000000000000000000000000000000\n<path>: 0000000000000000000000000000000000000000\n"
    When I run "verify-translation-pairing"
    Then the exit status is 1
    And the output contains "malformed     docs/README.i18n.yaml: line 2: "
    And the output contains "names a path outside the record's folder"

    Examples:
      | path             |
      | ../README.zh.md  |
      | /etc/passwd      |

  Scenario: malformed YAML is reported, not guessed, and --write leaves it alone
    Given the file "docs/README.i18n.yaml" contains "README.md: {\n"
    When I run "verify-translation-pairing --write docs/README.md"
    Then the exit status is 1
    And the output contains "not valid YAML"
    And the output contains "fix or delete docs/README.i18n.yaml first"
    And the record "docs/README.i18n.yaml" is unchanged

  Scenario: a side that is a symbolic link out of the repository is not read
    Given the pair in "docs" is recorded
    And the file "docs/README.zh.md" is a symbolic link to a file outside the repository
    When I run "verify-translation-pairing"
    Then the exit status is 1
    And the output contains "unreadable    docs/README.zh.md cannot be read: symbolic link leads outside the repository"

  Scenario: a sha256 repository records SHA-256 hashes
    Given a git repository using sha256
    And the file "README.md" contains "hello\n"
    And the file "README.zh.md" contains "你好\n"
    When I run "verify-translation-pairing --write README.zh.md"
    Then the exit status is 0
    And the record "README.i18n.yaml" holds the git hash of "README.md"
    And the record "README.i18n.yaml" holds the git hash of "README.zh.md"

  Scenario: mistakes in the command line exit with status 2
    When I run "verify-translation-pairing --write"
    Then the exit status is 2
    And the error output contains "--write needs the pair to re-record"
    When I run "verify-translation-pairing docs/NOTES.md"
    Then the exit status is 2
    And the error output contains "no such file"

  Scenario: a config pairs mirrored trees file by file, several documents in one record
    Given the file ".translation-pairing.yaml" contains "sets:\n  - record: docs/translations.i18n.yaml\n    languages:\n      en: docs/en/**/*.md\n      zh-CN: docs/zh-cn/**/*.md\n"
    And the file "docs/en/a/page.md" contains "page\n"
    And the file "docs/zh-cn/a/page.md" contains "页面\n"
    And the file "docs/en/b.md" contains "b\n"
    And the file "docs/zh-cn/b.md" contains "乙\n"
    And the file "docs/en/untranslated.md" contains "not yet\n"
    When I run "verify-translation-pairing --write docs/en/a/page.md"
    Then the exit status is 0
    And the record "docs/translations.i18n.yaml" holds the git hash of "docs/zh-cn/a/page.md"
    When I run "verify-translation-pairing --write docs/zh-cn/b.md"
    Then the exit status is 0
    When I run "verify-translation-pairing docs/translations.i18n.yaml"
    Then the exit status is 0
    And the output is:
      """
      confirmed     docs/en/a/page.md <-> docs/zh-cn/a/page.md (docs/translations.i18n.yaml)
      confirmed     docs/en/b.md <-> docs/zh-cn/b.md (docs/translations.i18n.yaml)
      2 pairs: 2 confirmed, 0 not confirmed
      """

  Scenario: line ends git converts on the way in leave a pair confirmed
    Given the git setting "core.autocrlf" is "true"
    And the pair in "docs" is recorded
    And the file "docs/README.md" contains "# Guide\r\n"
    When I run "verify-translation-pairing"
    Then the exit status is 0
    Given the file "docs/README.md" contains "# Guide\r\n\r\nNew.\r\n"
    When I run "verify-translation-pairing"
    Then the exit status is 1
    And the output contains "changed       docs/README.md changed since confirmation"

  Scenario: a folder name cannot smuggle a terminal escape into the output
    Given the file "x\u001b[2K\rconfirmed/README.md" contains "a\n"
    And the file "x\u001b[2K\rconfirmed/README.zh.md" contains "甲\n"
    When I run "verify-translation-pairing"
    Then the exit status is 1
    And the output contains "\"x\\033[2K\\rconfirmed/README.zh.md\" is beside"
