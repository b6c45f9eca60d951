@area:system-messages
Feature: SystemMessages1 - Mid-Conversation System Messages
  A changed context reaches the model as one durable, chronological system message placed after
  the input promoted at the same boundary. Kit sources render as described in
  features/context/ContextSources1.feature.

  @MCS-01 @EPO-03 @id:mcs-messages-1 @needs:kit-sources @needs:kit-tools
  Scenario: [1] Promoted input and settled tool results come before the system message
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the context source "kit/a.one" has the value "2"
    And the user steers "more"
    And the gate "g1" opens
    And the session settles
    # checks: MCS-01
    Then request 2 ends with:
      | role      | content            |
      | user      | start              |
      | assistant | calls gate         |
      | tool      | gate g1 opened     |
      | user      | more               |
      | system    | kit/a.one is now 2 |
    # checks: EPO-03
    And the history holds the user message "more" before the system message telling "kit/a.one is now 2"

  @MCS-02 @MCS-05 @id:mcs-messages-2 @needs:kit-sources
  Scenario: [2] The system message is durable and model-visible; a user transcript may show or hide it
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
      | kit/a.two |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/a.two" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2"
    And the context source "kit/a.two" has the value "2"
    And the user steers "two"
    And the session settles
    # checks: MCS-02 MCS-05
    Then the history holds the system message of request 2

  @MCS-03 @id:mcs-messages-3 @needs:fault-injection @needs:kit-sources
  Scenario: [3] When the system message cannot be written, the snapshot does not advance
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2"
    And durable writes of system messages fail
    And the user steers "two"
    And the session settles
    Then the provider received 1 request
    And the epoch holds "kit/a.one" as "1"
    When durable writes of system messages work again
    And the session is run
    And the session settles
    Then the last system message of request 2 is:
      """
      kit/a.one is now 2
      """

  @MCS-04 @id:mcs-messages-4 @needs:kit-sources
  Scenario: [4] An admitted system message survives a failed provider attempt and is resent unchanged
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider answers with status 400
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    And the session is run
    And the session settles
    Then the provider received 3 requests
    And request 3 has 1 system message
    And the last system message of request 3 is:
      """
      kit/a.one is now 2
      """
    # checks: MCS-04 EPO-03 MCS-01
    And request 3 ends with:
      | role   | content            |
      | user   | two                |
      | system | kit/a.one is now 2 |

  @MCS-06 @dialect:openai-chat @id:mcs-messages-5 @needs:kit-sources
  Scenario: [5] A provider with a chronological system role receives the message in place, in that role
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    Then request 2 carries its system message with the native system role

  @MCS-06 @dialect:anthropic-messages @dialect:gemini @id:mcs-messages-6 @needs:kit-sources
  Scenario: [6] A provider without one receives it wrapped in a user turn, as the runtime declares
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value '"<b> & c"'
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value '"<d> & e"'
    And the user steers "two"
    And the session settles
    Then request 2 carries its system message wrapped as declared in a user turn
    And the last system message of request 2 is:
      """
      kit/a.one is now "<d> & e"
      """

  @MCS-07 @id:mcs-messages-7 @needs:host-env @needs:virtual-clock
  Scenario: [7] The date follows the host-local calendar: nothing up to the last minute of a local day, the new date from its first minute
    Given the host environment sets TZ to "America/New_York"
    And a session "s1"
    And the clock is at "2026-01-15T14:00:00Z"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the clock is at "2026-01-16T04:59:00Z"
    And the user steers "two"
    And the session settles
    Then request 2 has no system message
    When the clock is at "2026-01-16T05:00:00Z"
    And the user steers "three"
    And the session settles
    Then the last system message of request 3 names the date "2026-01-16"
    And the last system message of request 3 does not name the date "2026-01-15"

  @MCS-01 @dialect:anthropic-messages @dialect:gemini @id:mcs-messages-1-wrapped @needs:kit-sources @needs:kit-tools
  Scenario: [8] Wrapped in the user turn it shares with tool results and input, the system message still comes after them
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the context source "kit/a.one" has the value "2"
    And the user steers "more"
    And the gate "g1" opens
    And the session settles
    # checks: MCS-01 EPO-03
    Then request 2 ends with:
      | role      | content            |
      | user      | start              |
      | assistant | calls gate         |
      | tool      | gate g1 opened     |
      | user      | more               |
      | system    | kit/a.one is now 2 |

  @MCS-04 @id:mcs-messages-4-changed-again @needs:kit-sources
  Scenario: [9] A source that changes again after the failed attempt is announced after the admitted message, which is resent unchanged
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider answers with status 400
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    And the context source "kit/a.one" has the value "3"
    And the session is run
    And the session settles
    Then the provider received 3 requests
    And request 3 has 2 system messages
    And request 3 ends with:
      | role   | content            |
      | user   | two                |
      | system | kit/a.one is now 2 |
      | system | kit/a.one is now 3 |

  @MCS-01 @INB-07 @id:mcs-steer-while-observing-1 @needs:kit-sources @needs:kit-tools
  Scenario: [10] A steer admitted after the promotion, while the boundary observes the context, waits for the next boundary
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2", read only once the gate "g1" opens
    And the user steers "two"
    And the gate "g1" is blocked
    And the user steers "three"
    And the gate "g1" opens
    And the session settles
    # checks: MCS-01
    Then request 2 has no user message after its last system message
    # checks: INB-07
    And the provider received 3 requests
    # checks: INB-07
    And request 2 has no user message "three"
    # checks: INB-07
    And request 3 ends with:
      | role      | content |
      | assistant | second  |
      | user      | three   |
    # checks: MCS-01
    And request 2 ends with:
      | role   | content            |
      | user   | two                |
      | system | kit/a.one is now 2 |
