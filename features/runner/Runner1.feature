@area:runner
Feature: Runner1 - Provider turns and tool settlement
  The runner sends one request per provider turn, records each local tool call durably before it
  runs, settles every started tool before continuing, and stops after 25 turns with work left.

  @RUN-01 @id:run-runner-1 @needs:kit-tools
  Scenario: [1] A tool call is durable before it runs, and its turn waits for it while other sessions go on
    Given a session "s1"
    And a session "s2"
    And the provider calls gate "g1"
    And the provider replies to "start" with "done"
    And the provider replies to "ping" with "pong"
    And the user steers "start"
    When the gate "g1" is blocked
    Then the history has the tool call "gate" running
    When the user steers "ping" to session "s2"
    # checks: RUN-01 RUN-07
    And session "s2" settles
    Then the provider received 2 requests
    And request 2 ends with:
      | role | content |
      | user | ping    |

  @RUN-01 @id:run-runner-2 @needs:kit-tools
  Scenario: [2] Every started tool settles before the next provider request
    Given a session "s1"
    And the provider calls the tools:
      | id     | name | input           |
      | call_a | gate | {"name": "g1"}  |
      | call_b | echo | {"text": "fast"} |
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    Then the history has the tool call "gate" running
    And the provider received 1 request
    When the gate "g1" opens
    And the session settles
    Then the provider received 2 requests
    And request 2 ends with:
      | role      | content          |
      | user      | start            |
      | assistant | calls gate, echo |
      | tool      | gate g1 opened   |
      | tool      | fast             |

  # The next request is built from the history as it was stored: a runtime that goes on from what it
  # holds in memory sends what the tool returned, not what was recorded of it.
  @RUN-01 @id:run-runner-reload-1 @needs:kit-tools
  Scenario: [2b] The request after a tool call carries the history as stored, the bounded output included
    Given the tool output limit is 5 lines or 2000 bytes
    And a session "s1"
    And the provider calls produce "c1" with 400 numbered lines
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    # checks: TOO-01
    Then the output of call "c1" is bounded
    And the provider received 2 requests
    And request 2 shows the model the output of call "c1"

  @RUN-02 @id:run-runner-3 @needs:kit-tools
  Scenario: [3] A drain fails after 25 provider turns when work remains
    Given a session "s1"
    And the provider calls echo 26 times
    When the user steers "loop"
    # checks: RUN-02
    And the session settles
    Then the provider received 25 requests
    And the session reports the failure "turn-limit"
    And 1 scripted provider turn is left unused

  @RUN-02 @id:run-runner-4 @needs:kit-tools
  Scenario: [4] A drain that finishes on its 25th provider turn does not fail
    Given a session "s1"
    And the provider calls echo 24 times
    And the provider replies "done"
    When the user steers "loop"
    And the session settles
    Then the provider received 25 requests
    And the session reports no failure
    When the provider calls echo 26 times
    And the provider replies "past the allowance"
    And the user steers "loop again"
    And the session settles
    Then a drain with work left failed after 25 provider turns, or the runtime has no such allowance to judge

  @RUN-03 @id:run-runner-5 @needs:kit-tools
  Scenario: [5] Tool call IDs repeated across turns do not collide
    Given a session "s1"
    And the provider calls the tools:
      | id     | name | input             |
      | call_1 | echo | {"text": "first"} |
    And the provider calls the tools:
      | id     | name | input              |
      | call_1 | echo | {"text": "second"} |
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 3 has the messages:
      | role      | content    |
      | user      | start      |
      | assistant | calls echo |
      | tool      | first      |
      | assistant | calls echo |
      | tool      | second     |
    And the history has 2 settled tool calls

  @RUN-10 @dialect:openai-chat @dialect:anthropic-messages @dialect:openai-responses @needs:kit-tools @id:run-tool-errors-1
  Scenario: [6] Inputs that do not decode and a tool that throws settle as tool errors the model reads, and the drain goes on
    Given a session "s1"
    And the provider calls echo as "call_cut" with the input text '{"text": "cut'
    And the provider calls echo as "call_type" with the input text '{"text": 5}'
    And the provider calls echo as "call_missing" with the input text '{"words": "no text"}'
    And the provider calls fail as "call_fail" with the input text '{"message": "boom"}'
    And the provider calls echo "fine"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the provider received 6 requests
    And call "call_cut" settled as error
    And call "call_type" settled as error
    And call "call_missing" settled as error
    And call "call_fail" settled as error
    And request 2 shows the model the output of call "call_cut"
    And request 5 ends with:
      | role      | content    |
      | assistant | calls fail |
      | tool      | boom       |
    And "echo.log" in the workspace of "s1" has 1 line
    And the session reports no failure

  @RUN-09 @dialect:anthropic-messages @needs:kit-tools @id:run-hosted-calls-1 @needs:restart
  Scenario Outline: [7] A call the provider executed keeps its call and its result through the recovery of the turn's own tool (<case>)
    Given a session "s1"
    And the provider searches the web for "kit", gets 2 results of 300 characters, then calls gate "g1"
    And the provider replies "after the recovery"
    And the user steers "search"
    And the gate "g1" is blocked
    And the history comes to have the tool call "gate" running, or nothing here is judged
    When <stop>
    And the user steers "go on"
    And the session settles
    Then request 2 keeps the provider's web search, or the runtime has no tools the provider executes
    And the provider received 2 requests
    # checks: RUN-04
    And the history has the tool call "gate" settled as interrupted
    And request 2 replays the web search call for "kit" and its 2 results of 300 characters, under one ID

    Examples:
      | case          | stop                              |
      | interrupted   | the session is interrupted        |
      | after a crash | the runtime process restarts      |

  @RUN-10 @needs:kit-tools @id:run-tool-errors-2
  Scenario: [8] A tool that fails shows the model its message, and the drain goes on
    Given a session "s1"
    And the provider calls fail "boom: the disk is full"
    And the provider calls echo "after the failure"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the provider received 3 requests
    And request 2 ends with:
      | role      | content                |
      | user      | start                  |
      | assistant | calls fail             |
      | tool      | boom: the disk is full |
    And "echo.log" in the workspace of "s1" has 1 line
    And the session reports no failure

  @RUN-10 @needs:tool-contributions @id:run-tool-contribution-1
  Scenario: [9] A contributed tool is advertised and runs only in its location, and once its contribution is closed it is gone from the next request
    Given a session "s1"
    And a session "s2"
    And the location of "s1" has the contributed tool "kit_probe" under "kit/probe"
    And the provider calls the tools:
      | id      | name      | input |
      | call_kp | kit_probe | {}    |
    And the provider replies "first"
    And the provider replies "other"
    And the provider replies "second"
    When the user steers "one" to session "s1"
    And session "s1" settles
    And the user steers "elsewhere" to session "s2"
    And session "s2" settles
    And the tool contribution "kit/probe" of the location of "s1" is closed
    And the user steers "two" to session "s1"
    And session "s1" settles
    Then the provider received 4 requests
    And request 1 advertises the tool "kit_probe"
    And request 2 ends with:
      | role | content       |
      | tool | kit_probe ran |
    And request 3 does not advertise the tool "kit_probe"
    And request 4 does not advertise the tool "kit_probe"

  @RUN-10 @needs:tool-contributions @id:run-tool-output-invalid-1
  Scenario: [10] An output that does not validate against the tool's declared output schema settles as a tool-result error the model sees, and the drain goes on
    Given a session "s1"
    And the location of "s1" has the contributed tool "kit_count" under "kit/count", answering '{"count": "three"}' where its output schema asks for an integer "count"
    And the location of "s1" has the contributed tool "kit_tally" under "kit/tally", answering '{"count": 3}' where its output schema asks for an integer "count"
    And the provider calls the tools:
      | id      | name      | input |
      | call_kc | kit_count | {}    |
      | call_kt | kit_tally | {}    |
    And the provider replies "done"
    When the user steers "one"
    And the session settles
    Then the provider received 2 requests
    And call "call_kc" settled as error
    And call "call_kt" settled as success
    And request 2 shows the model the output of call "call_kc"
    And request 2 shows the model the output of call "call_kt"
    And the session reports no failure
