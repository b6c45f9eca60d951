@area:agents
Feature: Agents1 - Agent and model selection
  The agent and the model are sampled when a provider turn starts. The selected agent decides
  which skills the model is told about and which tools it may use, for every call its turn issues.

  @AGT-01 @id:agt-agents-1 @needs:kit-tools
  Scenario: [1] A switch admitted during a turn applies to the next turn without restarting this one
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the session selects the model "kit-model-2"
    And the gate "g1" opens
    And the session settles
    Then the provider received 2 requests
    And request 1 uses the model "kit-model"
    # checks: AGT-01 EPO-08
    And request 2 uses the model "kit-model-2"

  @AGT-02 @id:agt-agents-2
  Scenario: [2] An agent switch that changes the skill guidance adds a system message and keeps the baseline
    Given the skill "alpha" is described as "Writes release notes" with the body "ALPHA BODY"
    And the skill "beta" is described as "Bisects regressions" with the body "BETA BODY"
    # Both agents are selected ones: what a session without one runs as is AGT-05's.
    And the agent "author" may load the skills:
      | beta | allow |
    And the agent "reviewer" may load the skills:
      | beta | deny |
    And a session "s1"
    And the session selects the agent "author"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the session selects the agent "reviewer"
    And the user steers "two"
    And the session settles
    # checks: AGT-02 EPO-04
    Then the baselines of requests 1 and 2 are byte for byte the same
    # Nothing told at the switch is AGT-02's alone: there is no guidance to read for AGT-03.
    # checks: AGT-02
    And request 2 tells the model "Writes release notes" beside "two"
    # checks: AGT-02 AGT-03
    And request 2 does not tell the model "Bisects regressions" beside "two"

  @AGT-03 @id:agt-agents-3
  Scenario: [3] Skill guidance names only permitted skills, with their descriptions, and nothing more
    Given the skill "alpha" is described as "Writes release notes" with the body "ALPHA BODY", kept in "/skills/alpha-7c1"
    And the skill "beta" is described as "Bisects regressions" with the body "BETA BODY", kept in "/skills/beta-9d2"
    And the agent "build" may load the skills:
      | beta | deny |
    And a session "s1"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    # Where the guidance stands is EPO-01's: here only what it says.
    Then request 1 contains somewhere, in this order:
      | alpha                |
      | Writes release notes |
    And request 1 does not contain "Bisects regressions" anywhere
    # checks: AGT-03 AGT-07
    And request 1 does not contain "ALPHA BODY" anywhere
    # checks: AGT-03 AGT-07
    And request 1 does not contain "alpha-7c1" anywhere

  @AGT-04 @id:agt-agents-4 @needs:kit-tools
  Scenario: [4] A waiting permission request keeps the policy of the agent whose turn issued the call
    # The turn's agent is one the session selected: what a session without one runs as is AGT-05's.
    Given the agent "author" may use the tools:
      | echo | ask |
    And the agent "reviewer" may use the tools:
      | echo | deny |
    And a session "s1"
    And the session selects the agent "author"
    And the provider calls echo "approved"
    And the provider replies "done"
    And the user steers "start"
    And a tool call waits for permission
    When the session selects the agent "reviewer"
    # checks: AGT-04
    And the user approves the waiting tool call
    And the session settles
    Then the history has the tool call "echo" settled as success
    And "echo.log" in the workspace of "s1" has 1 line
    Given the provider calls the tools:
      | id         | name | input                   |
      | call_later | echo | {"text": "after switch"} |
    And the provider replies "done again"
    When the user steers "again"
    And the session settles
    Then call "call_later" settled as error, or nothing above was judged

  @AGT-05 @id:agt-agents-5 @needs:kit-tools
  Scenario: [5] A session with no agent runs, and is checked, as the default build agent
    Given the agent "build" may use the tools:
      | echo | deny |
    And a session "s1"
    And the provider calls echo "forbidden"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then the history has the tool call "echo" settled as error
    And "echo.log" in the workspace of "s1" has 0 lines

  @AGT-05 @id:agt-agents-5-shell-1
  Scenario: [5b] A session with no agent runs the shell as a session of the build agent does, asking where it asks
    # The build agent, defined with no rule for the shell: a runtime without agents has no build agent to compare with.
    Given the agent "build" may use the tools:
      | read | allow |
    And a session "s2"
    And the session "s2" selects the agent "build"
    And a session "s1"
    And the provider runs the shell command "printf built > built.txt" as "b2"
    And the provider replies "done"
    And the provider runs the shell command "printf ran > ran.txt" as "b1"
    And the provider replies "done"
    And the user steers "start" to session "s2"
    # The seeds fix no built-in rule of the build agent for the shell: the runtime's own, asking or not.
    And session "s2" settles, what it asks approved
    When the user steers "start" to session "s1"
    Then session "s1" settles, asking for permission where session "s2" asked
    And call "b1" settled as success
    And the file "ran.txt" in the workspace "s1" holds:
      """
      ran
      """

  @AGT-06 @dialect:anthropic-messages @dialect:openai-responses @dialect:gemini @id:agt-agents-6
  Scenario Outline: [6] Provider-native reasoning is replayed only to the model that produced it (<switch>)
    Given a session "s1"
    And the provider replies "first" after reasoning "weighing both options" signed "sig-kit-1"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    And the session selects the model "<model>"
    And the user steers "three"
    And the session settles
    Then request 2 replays the reasoning "weighing both options" signed "sig-kit-1"
    And request 3 carries no provider-native reasoning
    And request 3 has assistant text containing "weighing both options"

    # kit-other shares kit-model's name but for its last part: a runtime that takes the two for one
    # model (a family, a prefix) replays the signature to it.
    Examples:
      | switch             | model       |
      | another model      | kit-model-2 |
      | a kindred name     | kit-other   |

  @AGT-06 @dialect:openai-responses @id:agt-agents-6-metadata
  Scenario: [6m] The provider's own ID of an earlier answer goes back to no other model
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    And the session selects the model "kit-model-2"
    And the user steers "three"
    And the session settles
    Then request 3 has assistant text containing "first"
    And request 3 does not contain "msg_kit_1" anywhere
    And request 3 does not contain "msg_kit_2" anywhere

  @AGT-07 @id:agt-skill-tool-1
  Scenario: [7] A skill loads through the skill tool only where the agent may use it; a refused load reveals nothing of it
    Given the skill "alpha" is described as "Writes release notes" with the body "ALPHA BODY", kept in "/skills/alpha-7c1"
    And the skill "beta" is described as "Bisects regressions" with the body "BETA BODY", kept in "/skills/beta-9d2"
    And the agent "reviewer" may load the skills:
      | alpha | allow |
      | beta  | deny  |
    And a session "s1"
    And the session selects the agent "reviewer"
    And the provider loads the skill "alpha" as "call_alpha"
    And the provider loads the skill "beta" as "call_beta"
    And the provider replies "done"
    When the user steers "load them"
    And the session settles
    Then request 1 offers the skill tool
    And the provider received 3 requests
    # checks: AGT-07 AGT-03
    And request 1 does not contain "ALPHA BODY" anywhere
    # checks: AGT-07 AGT-03
    And request 1 does not contain "alpha-7c1" anywhere
    And call "call_alpha" settled as success
    # The body may come as the call's output or beside it, as the tool's effect: the rule is that only the tool brings it.
    And request 2 mentions "ALPHA BODY" in its conversation
    And call "call_beta" settled as error
    And request 3 does not contain "BETA BODY" anywhere
    And request 3 does not contain "beta-9d2" anywhere
    # The guidance follows the agent the session selected, not the one it runs as without a selection.
    # checks independently: AGT-03
    And request 1 contains somewhere, in this order:
      | alpha                |
      | Writes release notes |
    # checks independently: AGT-03
    And request 1 does not contain "Bisects regressions" anywhere

  @AGT-07 @id:agt-skill-tool-2
  Scenario: [11] Without any agent's rules, a skill's body and location reach the model through the skill tool only
    Given the skill "alpha" is described as "Writes release notes" with the body "ALPHA BODY", kept in "/skills/alpha-7c1"
    And a session "s1"
    And the provider loads the skill "alpha" as "call_alpha"
    And the provider replies "done"
    When the user steers "load it"
    And the session settles
    Then request 1 does not contain "ALPHA BODY" anywhere
    And request 1 does not contain "alpha-7c1" anywhere
    And request 1 offers the skill tool
    And call "call_alpha" settled as success
    # The seed says where a location may reach the model (through the tool only), not that it must.
    And request 2 mentions "ALPHA BODY" in its conversation

  @AGT-01 @id:agt-agents-8 @needs:restart
  Scenario: [8] A model selected between turns is the one of every later turn, across a restart too
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the session selects the model "kit-model-2"
    And the user steers "two"
    And the session settles
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    Then the provider received 3 requests
    And request 1 uses the model "kit-model"
    # checks: AGT-01 EPO-08
    And request 2 uses the model "kit-model-2"
    # checks: AGT-01 EPO-08
    And request 3 uses the model "kit-model-2"

  @AGT-01 @id:agt-agents-mid-turn-1 @needs:kit-tools
  Scenario: [9] An agent selected while a turn runs is the agent of the drain's next provider turn, with no new prompt
    Given the agent "author" may use the tools:
      | echo | allow |
    And the agent "reviewer" may use the tools:
      | echo | deny |
    And a session "s1"
    And the session selects the agent "author"
    And the provider calls gate "g1"
    And the provider calls echo "under the new agent"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the session selects the agent "reviewer"
    And the gate "g1" opens
    And the session settles
    Then the provider received 3 requests
    And the history has the tool call "gate" settled as success
    And the history has the tool call "echo" settled as error
    And "echo.log" in the workspace of "s1" has 0 lines

  @AGT-04 @id:agt-agents-allowed-later-1 @needs:kit-tools
  Scenario: [10] A call its turn's agent allows runs under that agent, even when it is authorized after another agent was selected
    Given the agent "author" may use the tools:
      | echo | allow |
    And the agent "reviewer" may use the tools:
      | echo | deny |
    And a session "s1"
    And the session selects the agent "author"
    And the provider calls the tools:
      | id        | name | input                           |
      | call_gate | gate | {"name": "g1"}                  |
      | call_echo | echo | {"text": "allowed by its turn"} |
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the session selects the agent "reviewer"
    And the gate "g1" opens
    And the session settles
    Then the provider received 2 requests
    And call "call_gate" settled as success
    And call "call_echo" settled as success
    And "echo.log" in the workspace of "s1" has 1 line
    Given the provider calls the tools:
      | id         | name | input                   |
      | call_later | echo | {"text": "after switch"} |
    And the provider replies "done again"
    When the user steers "again"
    And the session settles
    Then call "call_later" settled as error, or nothing above was judged

  # A runtime that authorizes a call once its turn's stream has ended reads the agent selected meanwhile.
  @AGT-04 @id:agt-agents-allowed-held-end-1 @needs:kit-tools
  Scenario: [10b] A call its turn's agent allows runs under that agent, though another agent was selected before the turn's stream ended
    Given the agent "author" may use the tools:
      | echo | allow |
    And the agent "reviewer" may use the tools:
      | echo | deny |
    And a session "s1"
    And the session selects the agent "author"
    And the provider calls echo "allowed by its turn" but holds its end until "end" is released
    And the provider replies "done"
    And the user steers "start"
    And the runtime has read the held reply "end" up to its end
    When the session selects the agent "reviewer"
    And the held reply "end" is released
    And the session settles
    Then the provider received 2 requests
    And call "call_echo" settled as success
    And "echo.log" in the workspace of "s1" has 1 line
    Given the provider calls the tools:
      | id         | name | input                    |
      | call_later | echo | {"text": "after switch"} |
    And the provider replies "done again"
    When the user steers "again"
    And the session settles
    Then call "call_later" settled as error, or nothing above was judged

  @AGT-05 @id:agt-agents-5-skills
  Scenario: [11] A session with no agent is told the skills of the build agent, not those of another agent
    Given the skill "alpha" is described as "Writes release notes" with the body "ALPHA BODY"
    And the skill "beta" is described as "Bisects regressions" with the body "BETA BODY"
    And the agent "reviewer" may load the skills:
      | alpha | deny |
    And the agent "build" may load the skills:
      | beta | deny |
    And a session "s1"
    And the provider replies "ok"
    And the provider replies "ok again"
    When the user steers "hello"
    And the session settles
    And a session "s2"
    And the session "s2" selects the agent "build"
    And the user steers "hello" to session "s2"
    And session "s2" settles
    # A runtime whose skill guidance follows no agent's rules shows nothing of which agent runs.
    Then request 2 does not contain "Bisects regressions" anywhere, or nothing here is judged
    And request 1 contains "Writes release notes" somewhere
    And request 1 does not contain "Bisects regressions" anywhere
