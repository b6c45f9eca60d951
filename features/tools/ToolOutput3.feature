@area:tools
Feature: ToolOutput3 - Bounding at the Runtime's Own Limit
  What bounding keeps, where the complete text goes and what passes unchanged do not depend on the
  unit or the value of the limit. These scenarios take the limit a runtime applies when the kit
  configures none, as it declares it (in lines, UTF-8 bytes or characters), and size the output
  from it: over every part of it, or well within it. A runtime that declares no limit of its own
  is judged on these rules at configured limits (ToolOutput1, ToolOutput2). Where a runtime bounds
  only its shell's output, the output goes through its shell, and one scenario through another tool.

  @TOO-03 @id:too-own-limit-1 @needs:kit-tools
  Scenario: [1] Output over the runtime's own limit keeps its first and last lines
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    And the output of call "c1" keeps its first and last lines
    And request 2 shows the model the output of call "c1"

  @TOO-04 @TOO-06 @id:too-own-limit-2 @needs:kit-tools
  Scenario: [2] Output over the runtime's own limit names its complete text, kept byte for byte in a managed file
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit, each ending in " é€𝄞"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-04
    And the output of call "c1" names its complete output path
    # checks: TOO-04
    And request 2 shows the model the output of call "c1"
    # checks: TOO-06
    And the complete output of call "c1" holds exactly what the tool returned
    # checks: TOO-06
    And the managed output directory holds 1 file

  @TOO-11 @id:too-own-limit-3 @needs:kit-tools
  Scenario: [3] Output well within the runtime's own limit passes unchanged, with no marker and no file
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines well within the tool output limit
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the output of call "c1" is exactly what the tool returned
    And request 2 shows the model the output of call "c1"
    And the managed output directory holds 0 files
    # A runtime that bounds nothing passes the checks above: an output over the limit in the same
    # session comes back bounded, or they showed nothing.
    When the provider calls produce "c2" with numbered lines over every part of the tool output limit
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    Then the output of call "c2" was bounded, or nothing here is judged

  @TOO-05 @id:too-own-limit-4 @needs:kit-tools
  Scenario: [4] Two outputs over the runtime's own limit get different managed files in one flat directory
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
    And the provider calls produce "c2" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then calls "c1" and "c2" have different managed files in one flat directory

  @TOO-13 @id:too-own-limit-5 @needs:kit-tools @needs:restart
  Scenario: [5] The bounded output stays the replay record after its managed file is gone, across a restart
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
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

  @TOO-01 @id:too-own-limit-6 @needs:kit-tools
  Scenario: [6] The runtime's own limit counts lines and UTF-8 bytes, and lines bound an output of short lines
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines twice the tool output limit's lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the runtime's own tool output limit counts lines and UTF-8 bytes
    And the output of call "c1" is bounded
    And the output of call "c1" is within the runtime's own tool output limit

  @TOO-01 @TOO-03 @id:too-own-limit-7 @needs:kit-tools
  Scenario: [7] The runtime's own limit bounds every tool's output, not only its shell's
    Given the tool output limit is the runtime's own on every tool
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    # checks: TOO-01
    And the output of call "c1" is within the runtime's own tool output limit
    # checks independently: TOO-03
    And the output of call "c1" keeps its first and last lines

  @TOO-02 @id:too-own-limit-8 @needs:kit-tools @needs:restart
  Scenario: [8] The runtime's own limit is the same with a provider of another dialect
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    And the user steers "start"
    And the session settles
    And request 2 shows the model an output of call "c1"
    # checks: INB-06
    When the runtime process restarts talking to a provider of another dialect
    And the provider calls produce "c2" with numbered lines over every part of the tool output limit
    And the provider replies "done again"
    And the user steers "again"
    And the session settles
    # checks: TOO-02
    Then the output of call "c2" is bounded as the output of call "c1" was
    And request 2 shows the model the output of call "c2" as the output of call "c1" was shown

  @TOO-08 @id:too-own-limit-9 @needs:kit-tools
  Scenario: [9] Output over the runtime's own limit leaves no raw copy in anything the runtime keeps
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    And the output of call "c1" was bounded, or nothing here is judged
    Then no durable tool output holds every line of the raw output of call "c1"

  @TOO-05 @id:too-own-limit-10 @needs:kit-tools
  Scenario: [10] The complete outputs of two sessions in two locations, over the runtime's own limit, go into one shared directory
    Given a session "s1"
    And a session "s2"
    And the tool output limit is the runtime's own
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    And the provider calls produce "c2" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    And the user steers "start" to session "s2"
    And session "s2" settles
    And the output of call "c1" was bounded, or nothing here is judged
    And the output of call "c2" was bounded, or nothing here is judged
    Then calls "c1" and "c2" have different managed files in one flat directory

  # A runtime whose limit cannot be set is judged at its own, where its managed files go.
  @TOO-07 @id:too-own-limit-11 @needs:kit-tools
  Scenario: [11] Over the runtime's own limit, with a file where the managed output directory goes, the tool still succeeds without a path
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the managed output directory cannot be created
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then call "c1" settled as success
    # checks: TOO-01
    And the output of call "c1" is bounded
    And call "c1" has no complete output path
    And the output of call "c1" says that it lost text
    And the runtime reported a diagnostic for operators

  @TOO-08 @id:too-own-limit-running-1 @needs:kit-tools
  Scenario: [12] Output over the runtime's own limit is kept raw nowhere while the call that printed it still runs
    Given the tool output limit is the runtime's own
    And a session "s1"
    And the provider calls produce "c1" with numbered lines over every part of the tool output limit, then waits at the gate "g"
    And the provider replies "done"
    When the user steers "start"
    And the gate "g" is blocked
    Then while call "c1" runs, the session's history holds no more of its raw output than the limit
    When the gate "g" opens
    And the session settles
    And the output of call "c1" was bounded, or nothing here is judged
    Then no durable tool output holds every line of the raw output of call "c1"
