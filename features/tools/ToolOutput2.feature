@area:tools
Feature: ToolOutput2 - Managed Tool Output Files
  The complete text of a bounded output lives in a managed file in one shared flat directory,
  readable by the read tool. A storage failure leaves a successful, explicitly lossy output; a
  crash never publishes raw oversized output; structured and tool-managed results are respected.

  @TOO-05 @id:too-files-1 @needs:kit-tools
  Scenario: [1] Managed files have unique names in one flat directory and the read tool opens them
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines
    And the provider calls produce "c2" with 400 numbered lines
    And the provider calls gate "g1"
    And the user steers "start"
    And the gate "g1" is blocked
    And the provider calls read "r1" on the complete output of call "c1"
    And the provider replies "done"
    When the gate "g1" opens
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    And calls "c1" and "c2" have different managed files in one flat directory
    # checks: TOO-05 TLS-01
    And call "r1" read the 400 numbered lines

  @TOO-05 @TLS-01 @id:too-files-2
  Scenario: [2] Other absolute paths stay outside the location's authority
    Given a session "s1"
    And the file "secret.txt" in the workspace "elsewhere" says "do not show"
    And the provider calls read "r1" on the absolute path of "secret.txt" in the workspace "elsewhere"
    And the provider replies "done"
    When the user steers "start"
    # checks: TLS-01
    And the session settles
    # checks: TOO-05 TLS-01
    Then request 1 offers the tool "read"
    # checks: TOO-05 TLS-01
    And call "r1" was refused without revealing "do not show"

  @TOO-07 @id:too-files-3 @needs:fault-injection @needs:kit-tools
  Scenario: [3] A managed file that cannot be written leaves a lossy success without a path
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And managed output file writes fail
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then call "c1" settled as success
    # A runtime that bounds nothing shows nothing of what a lost managed file leaves: TOO-01's to answer for.
    # checks: TOO-01
    And the output of call "c1" is bounded
    # checks: TOO-07
    And call "c1" has no complete output path
    # checks: TOO-07
    And the output of call "c1" says that it lost text
    # checks: TOO-07
    And the runtime reported a diagnostic for operators
    # A lossy output bounded as a saved one is holds TOO-07, whatever TOO-01 says of the limit.
    # checks: TOO-01
    And the output of call "c1" is within 5 lines and 2000 bytes

  @TOO-07 @needs:kit-tools @id:too-files-8
  Scenario: [8] With a file where the managed output directory goes, the tool still succeeds without a path
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the managed output directory cannot be created
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then call "c1" settled as success
    # A runtime that bounds nothing shows nothing of what a lost managed file leaves: TOO-01's to answer for.
    # checks: TOO-01
    And the output of call "c1" is bounded
    # checks: TOO-07
    And call "c1" has no complete output path
    # checks: TOO-07
    And the output of call "c1" says that it lost text
    # checks: TOO-07
    And the runtime reported a diagnostic for operators
    # A lossy output bounded as a saved one is holds TOO-07, whatever TOO-01 says of the limit.
    # checks: TOO-01
    And the output of call "c1" is within 5 lines and 2000 bytes

  @TOO-08 @id:too-files-4 @needs:fault-injection @needs:kit-tools @needs:restart
  Scenario: [4] A crash between bounding and settlement never leaves raw output in history
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And managed output file writes hang once complete
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "done"
    And the user steers "start"
    When a managed output file write hangs
    # checks: INB-06
    And the runtime process restarts
    And the session is run
    And the session settles
    Then no durable tool output holds every line of the raw output of call "c1"

  @TOO-09 @id:too-files-5 @needs:kit-tools
  Scenario: [5] An oversized structured-only result keeps its value; the model gets a JSON preview
    Given the tool output limit is 12 lines or 100000 bytes
    And a session "s1"
    And the provider calls produce "c1" with only a structured result of 60 items
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-09 TOO-04
    Then call "c1" keeps its structured result of 60 items
    And the output of call "c1" is within 12 lines and 100000 bytes
    And the output of call "c1" previews its structured result as JSON
    # checks: TOO-09 TOO-04
    And the output of call "c1" names its complete output path
    And the complete output of call "c1" is its structured result as JSON
    And request 2 shows the model the output of call "c1"

  @TOO-10 @id:too-files-6 @needs:kit-tools
  Scenario: [6] A complete output the tool kept itself keeps its path through bounding
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines it keeps in "full.log"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then call "c1" keeps its complete output in "full.log" of the workspace
    # checks: TOO-10 TOO-04
    And the output of call "c1" names its complete output path
    # checks: TOO-01
    And the output of call "c1" is within 5 lines and 2000 bytes
    # checks independently: TOO-10
    And every managed file holds exactly what call "c1" returned

  @TOO-13 @id:too-files-7 @needs:kit-tools @needs:virtual-clock
  Scenario: [7] Replay still works after the managed file expired
    Given the tool output limit is 10 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "done"
    And the provider replies "still here"
    And the user steers "start"
    And the session settles
    And the output of call "c1" was bounded, or nothing here is judged
    When the managed output files expire on the runtime's clock
    And the user steers "again"
    And the session settles
    Then the managed output directory holds 0 files
    And request 3 shows the model the output of call "c1"
    And request 3 shows the model the output of call "c1" as request 2 did
    # checks independently: TOO-03
    And the output of call "c1" keeps its first and last lines

  @TOO-13 @id:too-files-7-on-disk @needs:kit-tools @needs:restart
  Scenario: [7b] Replay still works after the managed file is gone, across a restart
    Given the tool output limit is 10 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "done"
    And the provider replies "still here"
    And the user steers "start"
    And the session settles
    And the output of call "c1" was bounded, or nothing here is judged
    # checks: INB-06
    When the managed output files are gone, across a restart
    And the user steers "again"
    And the session settles
    Then the managed output directory holds 0 files
    And request 3 shows the model the output of call "c1"
    And request 3 shows the model the output of call "c1" as request 2 did
    # checks independently: TOO-03
    And the output of call "c1" keeps its first and last lines

  @TOO-01 @TOO-08 @id:too-files-error-1 @needs:kit-tools
  Scenario: [9] A failing tool's oversized message is bounded before it is stored, like any other output
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the provider calls fail "f1" with 400 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: RUN-10
    Then call "f1" settled as error
    # checks: TOO-01
    And the output of call "f1" is within 5 lines and 2000 bytes
    # checks: TOO-01
    And request 2 shows the model the output of call "f1"
    # checks independently: TOO-08
    And no durable tool output holds every line of the raw output of call "f1"

  @TOO-05 @id:too-files-search-1 @needs:kit-tools
  Scenario: [10] The managed file can be searched by its absolute path with the runtime's shell
    Given the agent "builder" has the rule allow for the shell
    And a session "s1"
    And the session selects the agent "builder"
    And the tool output limit is 5 lines or 2000 bytes
    And the provider calls produce "c1" with 400 numbered lines
    And the provider calls gate "g1"
    And the user steers "start"
    And the gate "g1" is blocked
    And the provider searches the complete output of call "c1" for the line "line 17" with the shell as "s1"
    And the provider replies "done"
    When the gate "g1" opens
    And the session settles
    Then call "s1" found line 17 reading "line 17"

  @TOO-06 @id:too-files-two-1 @needs:kit-tools
  Scenario: [11] Two outputs bounded one after the other, at one time on the runtime's clock, each keep their own complete text
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines
    And the provider calls produce "c2" with 200 numbered lines, each ending in " é€𝄞"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-01
    And the output of call "c2" is bounded
    # checks: TOO-06 TOO-05
    And the complete output of call "c1" holds exactly what the tool returned
    # checks: TOO-06 TOO-05
    And the complete output of call "c2" holds exactly what the tool returned

  @TOO-05 @id:too-files-shared-1 @needs:kit-tools
  Scenario: [11s] The complete outputs of two sessions in two locations go into the one shared directory
    Given a session "s1"
    And a session "s2"
    And the tool output limit is 5 lines or 2000 bytes
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "done"
    And the provider calls produce "c2" with 400 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    And the user steers "start" to session "s2"
    And session "s2" settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-01
    And the output of call "c2" is bounded
    And calls "c1" and "c2" have different managed files in one flat directory

  @TOO-05 @TLS-01 @id:too-files-beside-1
  Scenario: [12] A directory beside the managed output directory, its name extending it, stays outside the location's authority
    Given a session "s1"
    And the file "tool_secret" beside the managed output directory says "do not show"
    And the provider calls read "r1" on the absolute path of "tool_secret" beside the managed output directory
    And the provider replies "done"
    When the user steers "start"
    # checks: TLS-01
    And the session settles
    # checks: TOO-05 TLS-01
    Then request 1 offers the tool "read"
    # checks: TOO-05 TLS-01
    And call "r1" was refused without revealing "do not show"

  @TOO-04 @id:too-files-structured-1
  Scenario: [13] A bounded result keeps the structured result its tool returned
    Given a session "s1"
    And the file "big.txt" in the workspace "s1" has 40 numbered lines
    And the tool output limit is 1000 lines or 100000 bytes
    And the provider calls the tools:
      | id | name | input               |
      | r1 | read | {"path": "big.txt"} |
    And the provider replies "read whole"
    And the user steers "read it"
    And the session settles
    And the tool output limit is 5 lines or 100000 bytes
    And the provider calls the tools:
      | id | name | input               |
      | r2 | read | {"path": "big.txt"} |
    And the provider replies "done"
    When the user steers "read it again"
    And the session settles
    Then call "r2" has the structured result of call "r1"
    And the output of call "r2" names its complete output path

  @TOO-05 @TLS-01 @id:too-files-restart-1 @needs:kit-tools @needs:restart
  Scenario: [14] A managed file kept before a restart is read by its absolute path after it
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "kept"
    And the user steers "start"
    And the session settles
    # checks: TOO-01
    And the output of call "c1" is bounded
    # checks: INB-06
    And the runtime process restarts
    And the provider calls read "r1" on the complete output of call "c1"
    And the provider replies "done"
    When the user steers "read it"
    And the session settles
    # checks: TOO-05 TLS-01
    Then request 1 offers the tool "read"
    # checks: TOO-05 TLS-01
    And call "r1" read the 400 numbered lines
