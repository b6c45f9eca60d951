@area:inbox
Feature: Promotion1 - Steers and queued prompts
  Promotion moves an admitted prompt into session history. Steers join the running work at the
  next Safe Provider-Turn Boundary; queued prompts each open a later activity, in FIFO order.

  @INB-06 @id:inb-promotion-1 @needs:restart
  Scenario: [1] A prompt promoted before a crash is neither lost nor duplicated
    Given a session "s1"
    And the provider holds its reply "hi" until "reply" is released
    And the provider replies "hello again"
    And the user steers "hello"
    And the provider has received 1 request
    # checks: INB-06
    When the runtime process restarts
    And the session is woken
    And the session settles
    Then the provider received 1 request
    And the inbox is:
      | text  | state    |
      | hello | promoted |
    And the history has 1 user message "hello"
    And each promoted prompt has the sequence of its user message in history
    When the user steers "again"
    And the session settles
    Then request 2 has 1 user message "hello"

  @INB-06 @id:inb-promotion-2 @needs:restart
  Scenario: [2] A prompt admitted before a crash stays pending and promotes once
    Given a session "s1"
    And the provider replies "hi"
    And the user admits "hello" with id "m1" and no resume
    # checks: INB-06
    When the runtime process restarts
    And the session is woken
    And the session settles
    # checks: INB-06 INB-13
    Then request 1 has 1 user message "hello"
    And the inbox is:
      | id | state    |
      | m1 | promoted |

  @INB-07 @id:inb-promotion-3 @needs:kit-tools
  Scenario: [3] A steer promotes after the tool results, inside the current drain
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user steers "also this"
    And the gate "g1" opens
    And the session settles
    Then the kit names what the prompt "also this" did to the turn of "start" and its call "call_gate_g1"
    And request 2 ends with:
      | role      | content        |
      | user      | start          |
      | assistant | calls gate     |
      | tool      | gate g1 opened |
      | user      | also this      |
    And the provider received 2 requests

  @INB-08 @id:inb-promotion-4 @needs:kit-tools
  Scenario: [4] Several pending steers promote together in admission order
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user admits "one" as steer with id "msg-c"
    And the user admits "two" as steer with id "msg-a"
    And the user admits "three" as steer with id "msg-b"
    And the gate "g1" opens
    And the session settles
    # The steers wait for the call's own result (INB-07's): only then can they promote together.
    # checks: INB-07
    Then request 2 tells the model, after "gate g1 opened", in this order:
      | one |
    And request 2 tells the model, after the result of call "call_gate_g1", in this order:
      | one   |
      | two   |
      | three |
    # checks: INB-07
    And request 2 ends with:
      | role | content        |
      | tool | gate g1 opened |
      | user | one            |
      | user | two            |
      | user | three          |
    And the provider received 2 requests

  @INB-09 @id:inb-promotion-5 @needs:kit-tools
  Scenario: [5] Promoting a steer resets the provider-turn allowance
    Given a session "s1"
    And the provider calls echo 20 times
    And the provider calls gate "g1"
    And the provider calls echo 10 times
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user steers "keep going"
    And the user steers "and more"
    And the gate "g1" opens
    And the session settles
    # The steers are the input whose promotion restarts the allowance: a runtime that did not promote
    # them at the boundary after the gate (INB-07's) restarted nothing this scenario can see.
    Then request 22 mentions "keep going" in its conversation, or nothing here is judged
    And the provider received 32 requests
    And the session reports no failure
    When the provider calls echo 26 times
    And the provider replies "past the allowance"
    And the user steers "loop again"
    And the session settles
    Then a drain with work left failed after 25 provider turns, or the runtime has no such allowance to judge

  @INB-10 @id:inb-promotion-6 @needs:kit-tools
  Scenario: [6] A queued prompt waits while the drain still requires continuation
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the provider replies "later handled"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user queues "later"
    And the gate "g1" opens
    And the session settles
    Then the provider received 3 requests
    # checks: INB-10 INB-05
    And request 2 has no user message "later"
    # checks: INB-10 INB-11
    And request 3 ends with:
      | role      | content |
      | assistant | done    |
      | user      | later   |

  @INB-11 @id:inb-promotion-7
  Scenario: [7] Queued prompts promote one at a time, in FIFO order
    Given a session "s1"
    And the provider replies "a1"
    And the provider replies "a2"
    And the provider replies "a3"
    And the user admits "q1" as queue with id "msg_9" and no resume
    And the user admits "q2" as queue with id "msg_10" and no resume
    And the user admits "q3" as queue with id "msg_08" and no resume
    When the session is woken
    And the session settles
    Then the provider received 3 requests
    And request 1 has the messages:
      | role | content |
      | user | q1      |
    And request 3 has the messages:
      | role      | content |
      | user      | q1      |
      | assistant | a1      |
      | user      | q2      |
      | assistant | a2      |
      | user      | q3      |

  @INB-11 @id:inb-promotion-8 @needs:kit-tools
  Scenario: [8] Continuation is re-evaluated before the next queued prompt promotes
    Given a session "s1"
    And the provider calls echo "step"
    And the provider replies "q1 done"
    And the provider replies "q2 done"
    And the user admits "q1" as queue with no resume
    And the user admits "q2" as queue with no resume
    When the session is woken
    And the session settles
    Then the provider received 3 requests
    And request 2 ends with:
      | role      | content    |
      | user      | q1         |
      | assistant | calls echo |
      | tool      | step       |
    And request 3 ends with:
      | role      | content |
      | assistant | q1 done |
      | user      | q2      |

  @INB-11 @id:inb-promotion-7-running @needs:kit-tools
  Scenario: [7r] Prompts queued while a turn runs promote one at a time, in FIFO order
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "a0"
    And the provider replies "a1"
    And the provider replies "a2"
    And the provider replies "a3"
    And the user steers "start"
    And the gate "g1" is blocked
    And the user admits "q1" as queue with id "msg_9"
    And the user admits "q2" as queue with id "msg_10"
    And the user admits "q3" as queue with id "msg_08"
    When the gate "g1" opens
    And the session settles
    Then the provider received 5 requests
    And request 3 ends with:
      | role      | content |
      | assistant | a0      |
      | user      | q1      |
    And request 5 ends with:
      | role      | content |
      | user      | q1      |
      | assistant | a1      |
      | user      | q2      |
      | assistant | a2      |
      | user      | q3      |

  @INB-11 @id:inb-promotion-8-running @needs:kit-tools
  Scenario: [8r] Continuation is re-evaluated before the next prompt queued while a turn ran promotes
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "a0"
    And the provider calls echo "step"
    And the provider replies "q1 done"
    And the provider replies "q2 done"
    And the user steers "start"
    And the gate "g1" is blocked
    And the user queues "q1"
    And the user queues "q2"
    When the gate "g1" opens
    And the session settles
    Then the provider received 5 requests
    And request 4 ends with:
      | role      | content    |
      | user      | q1         |
      | assistant | calls echo |
      | tool      | step       |
    And request 5 ends with:
      | role      | content |
      | assistant | q1 done |
      | user      | q2      |

  @INB-15 @id:inb-ambiguous-wake-1 @needs:kit-tools @needs:restart
  Scenario: [9] A wake after a restart never sends the provider turn that may have been dispatched
    Given a session "s1"
    And the provider calls echo "step"
    And the provider holds its reply "done" until "reply" is released
    And the provider replies "after run"
    And the user steers "start"
    And the provider has received 2 requests
    # checks: INB-06
    When the runtime process restarts
    And the session is woken
    And the session settles
    # checks: INB-15 INB-13
    Then the provider received 2 requests
    And "echo.log" in the workspace of "s1" has 1 line
    When the session is run
    And the session settles
    Then the provider received 3 requests
    And request 3 ends with:
      | role      | content    |
      | user      | start      |
      | assistant | calls echo |
      | tool      | step       |
    And "echo.log" in the workspace of "s1" has 1 line

  @INB-15 @id:inb-ambiguous-wake-queued-1 @needs:restart
  Scenario: [9b] A prompt queued behind a turn a restart cut off does not make a wake send that turn
    Given a session "s1"
    And the provider holds its reply "never finished" until "reply" is released
    And the provider replies "later handled"
    And the user steers "start"
    And the provider has received 1 request
    And the user queues "later"
    # checks: INB-06
    When the runtime process restarts
    And the session is woken
    And the session settles
    # checks: INB-15 INB-13
    Then the wake either left "later" pending with no request, or promoted it in request 2 after the unanswered "start"

  @INB-09 @id:inb-allowance-once-1 @needs:kit-tools
  Scenario: [10] The allowance restarts once at the promoting boundary, and still ends the drain 25 turns later
    Given a session "s1"
    And the provider calls echo 5 times
    And the provider calls gate "g1"
    # More calls than allowances added together let run: a runtime that adds a fresh one to what was left still meets its limit.
    And the provider calls echo 75 times
    And the provider replies "never sent"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user steers "keep going"
    And the gate "g1" opens
    And the session settles
    # A runtime with no provider-turn allowance has none to restart.
    Then the session reports the failure "turn-limit", or nothing here is judged
    And the provider received 31 requests
    And 51 scripted provider turns are left unused
    # checks: RUN-02
    And the session reports the failure "turn-limit" mentioning "25"

  @INB-09 @id:inb-allowance-once-several-1 @needs:kit-tools
  Scenario: [10b] Three steers promoted at one boundary restart the allowance once, not once each
    Given a session "s1"
    And the provider calls echo 5 times
    And the provider calls gate "g1"
    # More calls than three restarted allowances let run: a runtime that gave each steer turns of its own still meets its limit.
    And the provider calls echo 76 times
    And the provider replies "never sent"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user steers "one"
    And the user steers "two"
    And the user steers "three"
    And the gate "g1" opens
    And the session settles
    Then the session reports the failure "turn-limit", or nothing here is judged
    And request 7 tells the model, after the result of call "call_gate_g1", in this order:
      | one   |
      | two   |
      | three |
    And the provider received 31 requests
    And 52 scripted provider turns are left unused
    # checks: RUN-02
    And the session reports the failure "turn-limit" mentioning "25"

  @INB-08 @INB-10 @needs:kit-tools @id:inb-steers-and-queue-1
  Scenario: [11] Two steers and a queued prompt pending at one boundary: the steers join the drain together, the queued prompt waits for the next activity
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "steered"
    And the provider replies "queued done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user steers "s2"
    And the user queues "q1"
    And the user steers "s3"
    And the gate "g1" opens
    And the session settles
    # checks: INB-10 INB-05
    Then request 2 has no user message "q1"
    # checks: INB-08
    And request 2 tells the model, after the result of call "call_gate_g1", in this order:
      | s2 |
      | s3 |
    # checks: INB-07
    And request 2 ends with:
      | role      | content        |
      | tool      | gate g1 opened |
      | user      | s2             |
      | user      | s3             |
    # checks: INB-10
    And the provider received 3 requests
    # checks: INB-10 INB-11
    And request 3 ends with:
      | role      | content |
      | assistant | steered |
      | user      | q1      |

  @INB-07 @id:inb-steer-while-settling-1 @needs:kit-tools
  Scenario: [12] A steer admitted while the calls of one turn settle one by one joins after all of their results
    Given a session "s1"
    And the provider calls the tools:
      | id      | name | input          |
      | call_g1 | gate | {"name": "g1"} |
      | call_g2 | gate | {"name": "g2"} |
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the user steers "more"
    And the gate "g1" opens
    And the gate "g2" is blocked
    And the gate "g2" opens
    And the session settles
    Then the provider received 2 requests
    # checks: INB-07 RUN-01
    And request 2 ends with:
      | role      | content          |
      | assistant | calls gate, gate |
      | tool      | gate g1 opened   |
      | tool      | gate g2 opened   |
      | user      | more             |

  @INB-07 @id:inb-steer-while-streaming-1
  Scenario: [13] A steer admitted while the provider streams its answer joins the history after that answer
    Given a session "s1"
    And the provider streams its reply "first answer" but holds its end until "reply" is released
    And the provider replies "second answer"
    And the user steers "start"
    And the runtime has read the held reply "reply" up to its end
    When the user steers "also this"
    And the held reply "reply" is released
    And the session settles
    Then the provider received 2 requests
    And request 2 ends with:
      | role      | content      |
      | user      | start        |
      | assistant | first answer |
      | user      | also this    |

  @INB-06 @id:inb-promotion-restart-1 @needs:restart
  Scenario: [14] A prompt promoted before a crash is kept once after the restart, and the next prompt sends it once
    Given a session "s1"
    And the provider holds its reply "hi" until "reply" is released
    And the provider replies "hello again"
    And the user steers "PROMOTED-ASK"
    And the provider has received 1 request
    When the runtime process restarts
    # What the runtime keeps, read before anything wakes it; whether the inbox row went with it is inb-promotion-1's.
    Then the history has 1 user message "PROMOTED-ASK"
    When the user steers "again"
    And the session settles
    Then the last request tells the model "PROMOTED-ASK" once
