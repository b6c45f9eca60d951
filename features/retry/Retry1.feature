@area:retry
Feature: Retry1 - Provider retries, doom loops and busy sessions
  A runtime of profile sol sends a provider request again after a failure that may pass, waiting
  on its clock as long as the schedule or the provider says; asks the user before a tool call
  repeats itself a third time; and, without an inbox, refuses a prompt while it is processing.

  @RTY-01 @profile:sol @id:rty-retry-1 @needs:virtual-clock
  Scenario: [1] A retryable failure is retried five times, the delay doubling from 2 s up to 30 s
    Given a session "s1"
    And the provider answers with status 503, 6 times
    And the user steers "hello"
    # checks: RTY-01
    When the clock passes retries 1 to 5
    And the session settles
    Then the provider received 6 requests
    And the retries waited:
      | retry | seconds |
      | 1     | 2       |
      | 2     | 4       |
      | 3     | 8       |
      | 4     | 16      |
      | 5     | 30      |
    And the session reports the failure "provider-error" mentioning "503"

  @RTY-01 @profile:sol @dialect:openai-chat @dialect:gemini @id:rty-retry-2 @needs:virtual-clock
  Scenario: [2] A rate limit's Retry-After sets the delay, and the retried turn goes on
    Given a session "s1"
    And the provider replies with the recording "rate-limited"
    And the provider replies "back again"
    And the user steers "hello"
    # checks: RTY-01
    When the clock passes retries 1 to 1
    And the session settles
    Then the provider received 2 requests
    And the retries waited:
      | retry | seconds |
      | 1     | 3       |
    And request 2 ends with:
      | role | content |
      | user | hello   |
    And the session reports no failure

  @RTY-01 @profile:sol @dialect:anthropic-messages @dialect:gemini @id:rty-retry-3 @needs:virtual-clock
  Scenario: [3] An overloaded provider is asked again after 2 s
    Given a session "s1"
    And the provider replies with the recording "overloaded"
    And the provider replies "back again"
    And the user steers "hello"
    # checks: RTY-01
    When the clock passes retries 1 to 1
    And the session settles
    Then the provider received 2 requests
    And the retries waited:
      | retry | seconds |
      | 1     | 2       |
    And the session reports no failure

  @RTY-02 @profile:sol @id:rty-retry-4
  Scenario: [4] A failure that cannot pass is not retried
    Given a session "s1"
    And the provider answers with status 400
    And the user steers "hello"
    # checks: RTY-02
    When the session settles
    Then the provider received 1 request
    And the session reports the failure "provider-error" mentioning "400"

  @RTY-02 @profile:sol @dialect:anthropic-messages @dialect:gemini @id:rty-retry-5
  Scenario: [5] A context overflow is not retried by the retry loop
    Given a session "s1"
    And the provider replies with the recording "context-overflow"
    And the provider summarizes with "SUMMARY: hello"
    And the provider replies "done" to every later turn
    And the user steers "hello"
    # checks: RTY-02
    When the session settles
    Then request 1 was not sent again
    # checks: CMP-11
    And the session reports the failure "context-overflow"

  @RTY-03 @profile:sol @id:rty-doom-loop-1 @needs:kit-tools
  Scenario: [6] The third identical tool call waits for permission; approval starts the count again
    Given a session "s1"
    And the provider calls echo "same" 4 times in a row
    And the provider replies "done"
    And the user steers "go"
    # checks: RTY-03
    When a tool call waits for permission
    Then "echo.log" in the workspace of "s1" has 2 lines
    When the user approves the waiting tool call
    # checks: RTY-03
    And the session settles
    Then the provider received 5 requests
    And "echo.log" in the workspace of "s1" has 4 lines
    And the session reports no failure

  @RTY-03 @profile:sol @id:rty-doom-loop-2 @needs:kit-tools
  Scenario: [7] Declining the repeated call fails the run
    Given a session "s1"
    And the provider calls echo "same" 3 times in a row
    And the user steers "go"
    # checks: RTY-03
    When a tool call waits for permission
    And the user declines the waiting tool call
    And the session settles
    Then the provider received 3 requests
    And "echo.log" in the workspace of "s1" has 2 lines
    And the session reports the failure "doom-loop"

  @RTY-04 @profile:sol @id:rty-busy-1 @needs:busy-submit @needs:kit-tools
  Scenario: [8] Without an inbox, a prompt to a processing session is refused and changes nothing
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "first done"
    And the provider replies "second done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user submits "meanwhile" without an inbox
    Then the submission fails with "busy"
    When the gate "g1" opens
    And the session settles
    Then the provider received 2 requests
    And the history has no user message "meanwhile"
    When the user submits "afterwards" without an inbox
    And the session settles
    Then the provider received 3 requests
    And request 3 ends with:
      | role | content    |
      | user | afterwards |

  @RTY-02 @profile:sol @id:rty-retry-client-error-1
  Scenario Outline: [9] A client error other than a rate limit is not retried (<status>)
    Given a session "s1"
    And the provider answers with status <status>
    And the user steers "hello"
    # checks: RTY-02
    When the session settles
    Then the provider received 1 request
    And the session reports the failure "provider-error" mentioning "<status>"

    # A conflict (409) is left out: no seed says whether it may pass when sent again, and the
    # provider SDKs published runtimes use retry it.
    Examples:
      | status |
      | 401    |
      | 404    |
      | 422    |

  @RTY-01 @profile:sol @id:rty-retry-after-1 @needs:virtual-clock
  Scenario Outline: [10] Retry-After sets the delay, in seconds or as an HTTP date, even beyond the 30 s of the schedule (<seconds> <given>)
    Given a session "s1"
    And the provider answers with status 429 and a Retry-After of <seconds> <given>
    And the provider replies "back again"
    And the user steers "hello"
    # checks: RTY-01
    When the clock passes retries 1 to 1
    And the session settles
    Then the provider received 2 requests
    And the retries waited:
      | retry | seconds   |
      | 1     | <seconds> |
    And the session reports no failure

    Examples:
      | case                 | seconds | given                    |
      | 7 seconds as a date  | 7       | seconds, as an HTTP date |
      | 45 seconds           | 45      | seconds                  |
      | 45 seconds as a date | 45      | seconds, as an HTTP date |

  @RTY-01 @profile:sol @id:rty-retry-after-zero-1
  Scenario: [11] A Retry-After of 0 sends each retry at once, five times, and the sixth failure is final
    Given a session "s1"
    And the provider answers with status 503 and a Retry-After of 0 seconds, 6 times
    When the user steers "hello"
    Then the provider receives 6 requests without a wait
    # checks: RTY-01
    When the session settles
    Then the provider received 6 requests
    And the session reports the failure "provider-error" mentioning "503"

  @RTY-01 @profile:sol @dialect:anthropic-messages @dialect:gemini @id:rty-retry-partial-1
  Scenario: [12] A response broken off after some text fails its turn, or is sent again as it was: its text never stands as an answer or joins the retry's
    Given a session "s1"
    And the provider replies with the recording "overloaded-midway"
    And the provider replies "The answer is 42"
    When the user steers "hello"
    # checks: RTY-01
    And the session settles
    Then the response broken off after "The answer is" failed its turn, or its retry answered "The answer is 42"

  @RTY-01 @profile:sol @id:rty-retry-next-turn-1 @needs:virtual-clock
  Scenario: [13] The retries of a later provider turn wait 2 s again: the schedule starts anew after a turn that passed
    Given the file "notes.txt" in the workspace "s1" says "noted"
    And a session "s1"
    And the provider answers with status 503
    And the provider calls read "notes.txt"
    And the provider answers with status 503
    And the provider replies "done"
    And the user steers "go"
    # checks: RTY-01
    When the clock passes retries 1 to 1
    And the clock passes retries 1 to 1 of request 3
    And the session settles
    Then the provider received 4 requests
    And the retries waited:
      | retry | seconds |
      | 1     | 2       |
      | 1     | 2       |
    And the session reports no failure

  @RTY-01 @profile:sol @id:rty-retry-reset-1 @needs:virtual-clock
  Scenario: [14] A request whose connection was reset is sent again as it was, on the same schedule, and the turn goes on
    Given a session "s1"
    And the provider resets the connection, 2 times
    And the provider replies "back again"
    And the user steers "hello"
    # checks: RTY-01
    When the clock passes retries 1 to 2
    And the session settles
    Then the provider received 3 requests
    And the retries waited:
      | retry | seconds |
      | 1     | 2       |
      | 2     | 4       |
    And request 3 ends with:
      | role | content |
      | user | hello   |
    And the session reports no failure

  @RTY-01 @profile:sol @id:rty-retry-reset-2 @needs:virtual-clock
  Scenario: [15] Resets are retried up to the limit of five, like any failure that may pass
    Given a session "s1"
    And the provider resets the connection, 5 times
    And the provider replies "back again"
    And the user steers "hello"
    # checks: RTY-01
    When the clock passes retries 1 to 5
    And the session settles
    Then the provider received 6 requests
    And the retries waited:
      | retry | seconds |
      | 1     | 2       |
      | 2     | 4       |
      | 3     | 8       |
      | 4     | 16      |
      | 5     | 30      |
    And the session reports no failure

  @RTY-03 @profile:sol @id:rty-doom-loop-different-1 @needs:kit-tools
  Scenario: [16] Calls of one tool with different inputs run without asking, after two identical ones too
    Given a session "s1"
    And the provider calls echo "same" 2 times in a row
    And the provider calls echo 3 times
    And the provider replies "done"
    When the user steers "go"
    # checks: RTY-03
    And the session settles
    Then no tool call waits for permission
    And the provider received 6 requests
    And "echo.log" in the workspace of "s1" has 5 lines
    And the session reports no failure
