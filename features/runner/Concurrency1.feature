@area:runner
Feature: Concurrency1 - Serialized drains and location fencing
  One session drains one thing at a time while different sessions drain side by side, and a
  moved session never starts another provider turn with its old location's tools.

  @RUN-07 @id:run-concurrency-1
  Scenario: [1] Drains of one session never overlap
    Given a session "s1"
    And the provider holds its reply "first" until "reply" is released
    And the provider replies "second"
    And the user steers "a"
    And the provider has received 1 request
    When the session is woken
    And the session is woken
    And the user steers "b"
    And the held reply "reply" is released
    And the session settles
    Then the provider received 2 requests
    And the provider never had more than 1 response open

  @RUN-07 @id:run-concurrency-2
  Scenario: [2] Different sessions drain concurrently
    Given a session "s1"
    And a session "s2"
    And the provider holds its reply to "from s1" with "ok" until "s1" is released
    And the provider replies to "from s2" with "ok"
    And the user steers "from s1" to session "s1"
    And the provider has received 1 request
    When the user steers "from s2" to session "s2"
    And session "s2" settles
    Then the provider received 2 requests

  @RUN-08 @id:run-concurrency-3 @needs:kit-tools
  Scenario: [3] A session moved during a drain runs no tool of its old location
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider calls echo "after the move"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When session "s1" moves to a new workspace "elsewhere"
    And the gate "g1" opens
    And the session settles
    Then the workspace "s1" has no file "echo.log"

  @RUN-07 @id:run-one-drain-1
  Scenario: [4] A prompt admitted while the session drains joins that drain: no second request goes out beside the first
    Given a session "s1"
    And the provider holds its reply "first" until "reply" is released
    And the provider replies "second"
    And the user steers "one"
    And the provider has received 1 request
    When the user steers "two"
    And the held reply "reply" is released
    And the session settles
    Then the provider never had more than 1 response open
    And the provider received 2 requests
    # checks: INB-07
    And the history has 1 assistant message "first"
    # checks: INB-07 RUN-07
    And request 2 ends with:
      | role      | content |
      | assistant | first   |
      | user      | two     |

  @RUN-08 @id:run-moved-context-1 @needs:kit-tools @needs:kit-sources
  Scenario: [5] A session moved during a drain sends no later request with its old location's context
    Given a session "s1"
    And the contributor "kit/here" contributes the context sources:
      | key          |
      | kit/here.one |
    And the contributor "kit/there" contributes the context sources in the workspace "elsewhere":
      | key           |
      | kit/there.one |
    And the context source "kit/here.one" has the value '"here"'
    And the context source "kit/there.one" has the value '"there"'
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When session "s1" moves to a new workspace "elsewhere"
    And the gate "g1" opens
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/here.one = "here" |
    And no request after request 1 contains "kit/here.one"

  @RUN-08 @id:run-moved-tools-1 @needs:tool-contributions
  Scenario: [6] A session moved into a directory of its old location advertises that location's contributed tools no more, and its new location's
    Given a session "s1"
    And the location of "s1" has the contributed tool "kit_here" under "kit/here"
    And the provider replies "before the move"
    And the provider replies "after the move"
    When the user steers "one"
    And the session settles
    And session "s1" moves to "sub" of the project "s1"
    And the location of "s1" has the contributed tool "kit_there" under "kit/there"
    And the user steers "two"
    And the session settles
    Then the provider received 2 requests
    And request 1 advertises the tool "kit_here"
    And request 1 does not advertise the tool "kit_there"
    And request 2 does not advertise the tool "kit_here"
    And request 2 advertises the tool "kit_there"
