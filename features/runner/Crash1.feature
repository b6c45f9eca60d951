@area:runner
Feature: Crash1 - Real crashes inside durable windows
  The runtime is killed (SIGKILL, its whole process group) the moment a named durable write is
  done, and a fresh process resumes over the same store. Nothing admitted is lost or duplicated,
  no raw oversized output is published, the snapshot agrees with the system messages, and a
  compaction either completed or left the previous boundary active. Only a runtime in a process
  of its own can crash; run in the kit's process these scenarios are not applicable.

  @INB-06 @needs:fault-injection @needs:restart @id:run-crash-admission-1
  Scenario: [1] Killed right after an admission with resume, the prompt is promoted once after the restart
    Given a session "s1"
    And the provider replies "hi"
    And the runtime is to crash right after it stores an admission
    When the user steers "hello", which may crash the runtime
    And the crashed runtime starts again
    Then the inbox is:
      | text  | state   |
      | hello | pending |
    When the session is woken
    And the session settles
    # checks: INB-06 INB-13
    Then the provider received 1 request
    And request 1 has 1 user message "hello"
    And the inbox is:
      | text  | state    |
      | hello | promoted |
    And the history has 1 user message "hello"

  @INB-06 @needs:fault-injection @needs:restart @id:run-crash-promotion-1
  Scenario: [2] Killed right after a promotion, the prompt is neither lost nor duplicated, and only a run sends it
    Given a session "s1"
    And the provider replies "hi"
    And the runtime is to crash right after it stores a promotion
    When the user steers "hello", which may crash the runtime
    And the crashed runtime starts again
    And the session is woken
    And the session settles
    # checks: INB-06 INB-13 INB-15
    Then the provider received 0 requests
    And the inbox is:
      | text  | state    |
      | hello | promoted |
    And the history has 1 user message "hello"
    When the session is run
    And the session settles
    # checks: INB-06 INB-12
    Then the provider received 1 request
    # checks: INB-06 INB-15
    And request 1 has 1 user message "hello"

  @MCS-03 @needs:fault-injection @needs:restart @needs:kit-sources @id:run-crash-system-message-1
  Scenario: [3] Killed right after a system message, the snapshot agrees with it: the change is announced once
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    And the context source "kit/a.one" has the value "2"
    And the runtime is to crash right after it stores a system message
    When the user steers "two", which may crash the runtime
    And the crashed runtime starts again
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "2"
    And the session is run
    And the session settles
    Then the provider received 2 requests
    And request 2 has 1 system message
    And the last system message of request 2 is:
      """
      kit/a.one is now 2
      """
    And the epoch holds "kit/a.one" as "2"

  @TOO-08 @RUN-04 @needs:fault-injection @needs:restart @needs:kit-tools @id:run-crash-tool-output-1
  Scenario: [4] Killed after a tool finished but before its settlement, the call fails as interrupted and no raw output is published
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "recovered"
    And the runtime is to crash right after it stores a tool's output file
    When the user steers "start", which may crash the runtime
    And the crashed runtime starts again
    And the tool output limit is 5 lines or 2000 bytes
    And the session is run
    And the session settles
    # checks: RUN-04
    Then call "c1" settled as interrupted
    # checks: RUN-04
    And the provider received 2 requests
    # checks: RUN-04
    And request 2 shows the model the output of call "c1"
    # checks independently: TOO-08
    And no durable tool output holds every line of the raw output of call "c1"

  @CMP-07 @needs:fault-injection @needs:restart @id:run-crash-compaction-1
  Scenario: [5] Killed during a compaction, the previous boundary stays active and the next run compacts anew
    Given a session "s1"
    And the context budget is sized so that one long reply overflows it
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY: after the crash"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the runtime is to crash right after it stores the start of a compaction
    When the user steers "two", which may crash the runtime
    And the crashed runtime starts again
    # checks: CMP-07
    Then the session has 0 completed compactions
    And the history still holds the long reply
    When the context budget is sized so that one long reply overflows it
    And the session is run
    And the session settles
    Then the provider received 3 requests
    # checks: CMP-07
    And the session has 1 completed compaction
    # checks: CMP-07 CMP-09
    And request 3 ends with:
      | role | content |
      | user | two     |
