@area:tools
Feature: Read1 - The read tool
  The read tool resolves paths inside the session's location and refuses escapes. It lists a
  directory's direct children, directories first and alphabetical, and pages large text files by
  line ranges; binary files come back as base64.

  @TLS-01 @id:tls-read-1
  Scenario: [1] Relative paths resolve in the location; .. and link escapes are refused, even into a sibling whose name extends the location's
    Given a session "s1"
    And the file "notes/a.txt" in the workspace "s1" says "alpha"
    And the file "secret.txt" in the workspace "other" says "do not show"
    And the file "secret.txt" in the workspace "s1-sibling" says "do not show"
    And the file "link.txt" in the workspace "s1" is a link to "../other/secret.txt"
    And the provider calls the tools:
      | id | name | input                            |
      | r1 | read | {"path": "notes/a.txt"}          |
      | r2 | read | {"path": "../other/secret.txt"}  |
      | r3 | read | {"path": "notes/../../other/secret.txt"} |
      | r4 | read | {"path": "link.txt"}             |
      | r5 | read | {"path": "../s1-sibling/secret.txt"} |
      | r6 | read | {"path": ".."}                   |
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the tool "read"
    And call "r1" read "alpha"
    And call "r2" was refused without revealing "do not show"
    And call "r3" was refused without revealing "do not show"
    And call "r4" was refused without revealing "do not show"
    And call "r5" was refused without revealing "do not show"
    # The parent itself, a directory: its listing would name the sibling.
    And call "r6" was refused without revealing "s1-sibling"

  # A read tool that checks where a path leads rather than its form takes an absolute path into its own location.
  @TLS-01 @id:tls-read-absolute-inside-1
  Scenario: [1b] An absolute path is refused even where it names a file inside the location
    Given a session "s1"
    And the file "inside.txt" in the workspace "s1" says "do not show"
    And the provider calls read "r1" on the absolute path of "inside.txt" in the workspace "s1"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the tool "read"
    And call "r1" was refused without revealing "do not show"

  @TLS-02 @id:tls-read-2
  Scenario: [2] A directory lists directories first, alphabetically, paged by a one-based offset
    Given a session "s1"
    And the file "b.txt" in the workspace "s1" says "b"
    And the file "a.txt" in the workspace "s1" says "a"
    And the workspace "s1" has a directory "zeta"
    And the workspace "s1" has a directory "beta"
    And the provider calls the tools:
      | id | name | input                                  |
      | r1 | read | {"path": "."}                          |
      | r2 | read | {"path": ".", "offset": 2, "limit": 2} |
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the tool "read"
    And call "r1" listed, with next offset none:
      | name  | type      |
      | beta  | directory |
      | zeta  | directory |
      | a.txt | file      |
      | b.txt | file      |
    And call "r2" listed, with next offset 4:
      | name  | type      |
      | zeta  | directory |
      | a.txt | file      |

  @TLS-02 @id:tls-read-children-1
  Scenario: [2b] A directory lists its direct children only, not what they hold; a subdirectory lists its own
    Given a session "s1"
    And the file "a.txt" in the workspace "s1" says "a"
    And the file "zeta/inner.txt" in the workspace "s1" says "inner"
    And the file "zeta/deeper/deep.txt" in the workspace "s1" says "deep"
    And the provider calls the tools:
      | id | name | input            |
      | r1 | read | {"path": "."}    |
      | r2 | read | {"path": "zeta"} |
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the tool "read"
    And call "r1" listed, with next offset none:
      | name  | type      |
      | zeta  | directory |
      | a.txt | file      |
    And call "r2" listed, with next offset none:
      | name      | type      |
      | deeper    | directory |
      | inner.txt | file      |

  @TLS-02 @id:tls-read-3
  Scenario: [3] A large text file is paged by line ranges; a binary file comes back as base64, text that is not ASCII as text
    Given a session "s1"
    # The seeds leave "oversized" open: over 300 KB is beyond what any runtime reads whole at once (50 KiB, 256 KB).
    And the file "big.txt" in the workspace "s1" has 30000 numbered lines
    And the file "blob.bin" in the workspace "s1" has the bytes "00 01 02 ff fe 80"
    And the file "notes.txt" in the workspace "s1" says "Grüße, naïve café: 日本語 🙂"
    And the provider calls the tools:
      | id | name | input                                          |
      | r1 | read | {"path": "big.txt"}                            |
      | r2 | read | {"path": "big.txt", "offset": 10, "limit": 5}  |
      | r3 | read | {"path": "blob.bin"}                           |
      | r4 | read | {"path": "notes.txt"}                          |
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the tool "read"
    And call "r1" returned a first page of consecutive lines and the offset after it
    And call "r2" returned lines 10 to 14 with next offset 15
    And call "r3" returned the bytes "00 01 02 ff fe 80" as base64
    And call "r4" read "Grüße, naïve café: 日本語 🙂"
