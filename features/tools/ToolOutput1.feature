@area:tools
Feature: ToolOutput1 - Bounding Model Tool Output
  Every tool settlement is bounded by one configured limit of lines or UTF-8 bytes, whichever is
  reached first, whatever the provider. The bounded output keeps the beginning and the end and
  names where the complete text went; output within the limit passes unchanged.

  @TOO-01 @TOO-03 @id:too-bounding-1 @needs:kit-tools
  Scenario: [1] Too many lines: the output keeps its first and last lines within the line limit
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 500 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-01
    And the output of call "c1" is within 10 lines and 100000 bytes
    # checks: TOO-01
    And request 2 shows the model the output of call "c1"
    # checks independently: TOO-03
    And the output of call "c1" keeps its first and last lines

  @TOO-01 @TOO-03 @id:too-bounding-2 @needs:kit-tools
  Scenario: [2] Too many bytes in few lines: the byte limit is reached first
    Given the tool output limit is 1000 lines or 600 bytes
    And a session "s1"
    And the provider calls produce "c1" with one line of 5000 "x" between "BEGIN" and "END"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-01
    And the output of call "c1" is within 1000 lines and 600 bytes
    # checks independently: TOO-03
    And the output of call "c1" begins and ends like the tool output

  @TOO-02 @id:too-bounding-3 @needs:kit-tools @needs:restart
  Scenario Outline: [3] The limit is the same with a provider of another dialect (<limit>)
    Given the tool output limit is <limit>
    And a session "s1"
    And the provider calls produce "c1" with <output>
    And the provider replies "done"
    And the user steers "start"
    And the session settles
    And request 2 shows the model an output of call "c1"
    # checks: INB-06
    When the runtime process restarts talking to a provider of another dialect
    And the tool output limit is <limit>
    And the provider calls produce "c2" with <output>
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    # checks: TOO-02
    Then the output of call "c2" is bounded as the output of call "c1" was
    And request 2 shows the model the output of call "c2" as the output of call "c1" was shown

    Examples:
      | limit                    | output                 |
      | 8 lines or 100000 bytes  | 300 numbered lines     |
      | 1000 lines or 600 bytes  | one line of 5000 "x"   |

  @TOO-04 @TOO-06 @id:too-bounding-4 @needs:kit-tools
  Scenario: [4] A bounded output names its complete text, kept byte for byte in a managed file
    Given the tool output limit is 6 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 200 numbered lines, each ending in " é€𝄞"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-04
    And the output of call "c1" names its complete output path
    # checks: TOO-06
    And the complete output of call "c1" holds exactly what the tool returned
    # checks: TOO-06
    And the managed output directory holds 1 file

  @TOO-04 @TOO-06 @id:too-bounding-4-bytes @needs:kit-tools
  Scenario: [4b] An output bounded by bytes names its complete text, kept byte for byte in a managed file
    Given the tool output limit is 1000 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 200 numbered lines, each ending in " é€𝄞"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-04
    And the output of call "c1" names its complete output path
    # checks: TOO-06
    And the complete output of call "c1" holds exactly what the tool returned
    # checks: TOO-06
    And the managed output directory holds 1 file

  @TOO-11 @id:too-bounding-5 @needs:kit-tools
  Scenario: [5] Output within the limit passes unchanged, with no marker and no file
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 10 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "c1" is exactly what the tool returned
    And request 2 shows the model the output of call "c1"
    And the managed output directory holds 0 files
    # A runtime that bounds nothing passes the checks above: an output over the limit in the same
    # session comes back bounded, or they showed nothing.
    When the provider calls produce "c2" with 40 numbered lines
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    Then the output of call "c2" was bounded, or nothing here is judged

  @TOO-01 @TOO-03 @id:too-bounding-multibyte-1 @needs:kit-tools
  Scenario Outline: [7] Bytes decide: text within the limit in UTF-16 units but over it in UTF-8 is cut on a character (<text>, <bytes> bytes)
    Given the tool output limit is 1000 lines or <bytes> bytes
    And a session "s1"
    And the provider calls produce "c1" with one line of <count> "<text>"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-01
    And the output of call "c1" is within 1000 lines and <bytes> bytes
    # checks independently: TOO-03
    And the output of call "c1" begins and ends like the tool output

    # Where the cut falls depends on the length of the marker, which names the managed file's path,
    # so the limits step by two bytes: one of them cuts inside a character whatever the path.
    Examples:
      | case                    | text | count | bytes |
      | 2-byte at 600           | é    | 400   | 600   |
      | 2-byte at 602           | é    | 400   | 602   |
      | 3-byte at 600           | €    | 300   | 600   |
      | 3-byte at 602           | €    | 300   | 602   |
      | 3-byte at 604           | €    | 300   | 604   |
      | ascii and 2-byte at 600 | xé   | 300   | 600   |
      | 4-byte at 600           | 𝄞    | 200   | 600   |
      | 4-byte at 602           | 𝄞    | 200   | 602   |
      | 4-byte at 604           | 𝄞    | 200   | 604   |

  @TOO-11 @id:too-bounding-line-ends-1 @needs:kit-tools
  Scenario Outline: [8] Exactly at the line limit, a final line break opens no further line (<ending>)
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with exactly the line limit: 10 numbered lines, each ending in <ending>, the last one too
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "c1" is exactly what the tool returned
    And the managed output directory holds 0 files
    # A runtime that bounds nothing passes the checks above: an output over the limit in the same
    # session comes back bounded, or they showed nothing.
    When the provider calls produce "c2" with 40 numbered lines
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    Then the output of call "c2" was bounded, or nothing here is judged

    Examples:
      | ending |
      | LF     |
      | CRLF   |

  @TOO-11 @id:too-bounding-empty-1 @needs:kit-tools
  Scenario: [9] An empty output passes unchanged, and the drain goes on
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with an empty output
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then call "c1" settled as success
    And the output of call "c1" is exactly what the tool returned
    And request 2 shows the model the output of call "c1"
    And the managed output directory holds 0 files
    # A runtime that bounds nothing passes the checks above: an output over the limit in the same
    # session comes back bounded, or they showed nothing.
    When the provider calls produce "c2" with 40 numbered lines
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    Then the output of call "c2" was bounded, or nothing here is judged

  @TOO-01 @TOO-03 @dialect:openai-chat @id:too-bounding-bytes-chat-1 @needs:kit-tools
  Scenario: [10] The byte limit holds with a chat-completions provider, and the provider gets the bounded output whole
    Given the tool output limit is 1000 lines or 600 bytes
    And a session "s1"
    And the provider calls produce "c1" with one line of 5000 "x" between "BEGIN" and "END"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-01
    And the output of call "c1" is within 1000 lines and 600 bytes
    # checks independently: TOO-03
    And the output of call "c1" begins and ends like the tool output
    # checks: TOO-01
    And request 2 shows the model the output of call "c1"

  @TOO-06 @id:too-bounding-trailing-1 @needs:kit-tools
  Scenario Outline: [11] The managed file keeps the final line break and trailing whitespace of the output (<ending>)
    Given the tool output limit is 6 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 200 numbered lines, each ending in <ending>, the last one too
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    And the complete output of call "c1" holds exactly what the tool returned
    And the managed output directory holds 1 file

    Examples:
      | ending |
      | LF     |
      | CRLF   |

  @TOO-11 @id:too-bounding-at-byte-limit-1 @needs:kit-tools
  Scenario Outline: [12] Exactly at the byte limit, the output passes unchanged (<count> "<text>")
    Given the tool output limit is 1000 lines or 600 bytes
    And a session "s1"
    And the provider calls produce "c1" with exactly the byte limit: one line of <count> "<text>"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "c1" is exactly what the tool returned
    And the managed output directory holds 0 files
    # A runtime that bounds nothing passes the checks above: an output over the limit in the same
    # session comes back bounded, or they showed nothing.
    When the provider calls produce "c2" with one line of 5000 "x"
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    Then the output of call "c2" was bounded, or nothing here is judged

    Examples:
      | case   | text | count |
      | 1-byte | x    | 600   |
      | 2-byte | é    | 300   |

  @TOO-01 @id:too-bounding-failed-1 @needs:kit-tools
  Scenario: [13] The output of a failed call is bounded like any other
    Given the tool output limit is 3 lines or 100000 bytes
    And a session "s1"
    And the provider calls the tools:
      | id | name | input                                                         |
      | f1 | fail | {"message": "one\\ntwo\\nthree\\nfour\\nfive\\nsix\\nseven\\neight"} |
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "f1" is within 3 lines and 100000 bytes
    And request 2 shows the model the output of call "f1"

  @TOO-01 @id:too-bounding-one-over-1 @needs:kit-tools
  Scenario: [14] One line over the line limit is bounded, though no line break ends it
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 11 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "c1" is bounded
    And the output of call "c1" is within 10 lines and 100000 bytes

  @TOO-11 @id:too-bounding-trailing-within-1 @needs:kit-tools
  Scenario Outline: [15] Output within the limit keeps its final line break and trailing whitespace (<ending>)
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 5 numbered lines, each ending in <ending>, the last one too
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "c1" is exactly what the tool returned
    And the managed output directory holds 0 files
    # A runtime that bounds nothing passes the checks above: an output over the limit in the same
    # session comes back bounded, or they showed nothing.
    When the provider calls produce "c2" with 40 numbered lines
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    Then the output of call "c2" was bounded, or nothing here is judged

    Examples:
      | ending |
      | LF     |
      | CRLF   |

  @TOO-01 @id:too-bounding-lowered-1 @needs:kit-tools
  Scenario: [16] The same oversized output again, after the limit was lowered, is held to the new limit
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 40 numbered lines
    And the provider replies "first"
    And the user steers "start"
    And the session settles
    And the tool output limit is 5 lines or 100000 bytes
    And the provider calls produce "c2" with 40 numbered lines
    And the provider replies "done"
    When the user steers "again"
    And the session settles
    Then the output of call "c1" is within 10 lines and 100000 bytes
    And the output of call "c2" is within 5 lines and 100000 bytes
    And request 4 shows the model the output of call "c2"
    # checks: TOO-04
    And the output of call "c1" names its complete output path
    # checks: TOO-04
    And the output of call "c2" names its complete output path
    # checks: TOO-06
    And the complete output of call "c1" holds exactly what the tool returned
    # checks: TOO-06
    And the complete output of call "c2" holds exactly what the tool returned

  @TOO-01 @id:too-bounding-one-text-1 @needs:kit-tools
  Scenario: [12] Lines each far within the byte limit but over it together are bounded as one text
    Given the tool output limit is 1000 lines or 600 bytes
    And a session "s1"
    And the provider calls produce "c1" with 500 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "c1" is bounded
    And the output of call "c1" is within 1000 lines and 600 bytes
    And the output of call "c1" keeps its first and last lines

  @TOO-01 @id:too-bounding-one-text-2
  Scenario: [13] A failed command's output and its exit status are bounded together, as one text
    Given the tool output limit is 10 lines or 100000 bytes
    And a session "s1"
    And the provider runs the shell command "seq 1 60; exit 3" as "c1"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # Whether a command exiting non-zero fails the call the seeds leave open: only its bounding is judged.
    Then the output of call "c1" is within 10 lines and 100000 bytes
