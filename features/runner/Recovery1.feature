@area:runner
Feature: Recovery1 - Work left by a dead process
  A tool still recorded as running when a new process builds its next request was abandoned by a
  process that died. It is failed durably as interrupted and never executed again.

  @RUN-04 @id:run-recovery-1 @needs:kit-tools @needs:restart
  Scenario: [1] A tool left running by a dead process is failed as interrupted, not re-run
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "recovered"
    And the user steers "start"
    And the gate "g1" is blocked
    # A call the process died during is one the runtime recorded running: when it records it is RUN-01's.
    And the history comes to have the tool call "gate" running, or nothing here is judged
    # checks: INB-06
    When the runtime process restarts
    And the user steers "go on"
    And the session settles
    Then the history has the tool call "gate" settled as interrupted
    And the provider received 2 requests
    And request 2 ends with:
      | role      | content                    |
      | user      | start                      |
      | assistant | calls gate                 |
      | tool      | Tool execution interrupted |
      | user      | go on                      |
    And "gate.log" in the workspace of "s1" has 1 line

  @RUN-04 @id:run-recovery-2 @needs:kit-tools @needs:restart
  Scenario: [2] Every tool left running by a dead process is failed as interrupted, not only the first
    Given a session "s1"
    And the provider calls the tools:
      | id      | name | input          |
      | call_g1 | gate | {"name": "g1"} |
      | call_g2 | gate | {"name": "g2"} |
    And the provider replies "recovered"
    And the user steers "start"
    And the gate "g1" is blocked
    And the gate "g2" is blocked too, where the runtime runs the calls of a turn side by side
    # A call the process died during is one the runtime recorded running: when it records it is RUN-01's.
    And the history comes to have a tool call "gate" running, or nothing here is judged
    # checks: INB-06
    When the runtime process restarts
    And the user steers "go on"
    And the session settles
    Then the history is:
      | role      | content                    |
      | user      | start                      |
      | assistant | calls gate, gate           |
      | tool      | Tool execution interrupted |
      | tool      | Tool execution interrupted |
      | user      | go on                      |
      | assistant | recovered                  |
    And call "call_g1" settled as interrupted
    And call "call_g2" settled as interrupted
    And the provider received 2 requests
    And request 2 ends with:
      | role      | content                    |
      | user      | start                      |
      | assistant | calls gate, gate           |
      | tool      | Tool execution interrupted |
      | tool      | Tool execution interrupted |
      | user      | go on                      |
    And "gate.log" in the workspace of "s1" has 2 lines
