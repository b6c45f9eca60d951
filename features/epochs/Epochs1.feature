@area:epochs
Feature: Epochs1 - The Baseline System Context of a Context Epoch
  The first provider turn of an epoch renders the complete baseline, which then stays the
  provider-cache prefix, byte for byte, for the whole epoch. Kit sources render as described in
  features/context/ContextSources1.feature.

  @EPO-01 @id:epo-epochs-1 @needs:kit-sources
  Scenario: [1] The first provider turn renders the complete baseline and no system message
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       | removable |
      | kit/a.one | no        |
      | kit/a.two | yes       |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/a.two" has the value '"x"'
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/a.one = 1     |
      | kit/a.two = "x"   |
    And request 1 has no system message
    And the epoch holds "kit/a.one" as "1"
    # checks: EPO-01 CTX-09
    And the epoch holds the removal text 'kit/a.two (was "x") no longer applies' for "kit/a.two"

  @EPO-02 @EPO-03 @id:epo-epochs-2 @needs:kit-sources
  Scenario: [2] An unavailable source at the first observation blocks the turn and leaves the prompt pending
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" is unavailable
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    # checks: EPO-02
    Then the provider received 0 requests
    # checks: EPO-02
    And the session has no context epoch
    # checks: EPO-02 EPO-03
    And the inbox is:
      | text  | state   |
      | hello | pending |
    When the context source "kit/a.one" has the value "1"
    And the session is run
    And the session settles
    # checks: EPO-02
    Then the provider received 1 request
    # checks: EPO-02
    And request 1 has the kit context in its baseline:
      | kit/a.one = 1 |
    # checks: EPO-02
    And request 1 has the messages:
      | role | content |
      | user | hello   |

  @EPO-04 @id:epo-epochs-3 @needs:kit-sources @needs:restart @needs:virtual-clock
  Scenario: [3] The baseline stays byte for byte the same across a restart and a date change
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the clock is at "2026-01-15T10:00:00Z"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    # checks: INB-06
    When the runtime process restarts
    And the clock is at "2026-01-16T10:00:00Z"
    And the user steers "two"
    And the session settles
    # checks: EPO-04 EPO-05
    Then the baselines of requests 1 and 2 are byte for byte the same
    # checks: EPO-04 MCS-01
    And request 2 ends with:
      | role      | content |
      | user      | one     |
      | assistant | first   |
      | user      | two     |
      | system    | *       |
    And request 2 has 1 system message
    # checks: EPO-04 MCS-07
    And the last system message of request 2 names the date "2026-01-16"

  @EPO-04 @id:epo-epochs-4 @needs:kit-sources
  Scenario: [4] Changed sources arrive as system messages while the baseline is reused
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
    When the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    And the context source "kit/a.one" has the value "3"
    And the user steers "three"
    And the session settles
    Then the baselines of requests 1 and 3 are byte for byte the same
    And request 3 has the kit context in its baseline:
      | kit/a.one = 1 |
    # checks: EPO-04 CTX-05 MCS-05
    And request 3 has 2 system messages

  @EPO-05 @id:epo-epochs-5 @needs:kit-sources
  Scenario: [5] The epoch keeps the exact baseline text that was sent as the cache prefix
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value '"a & <b>"'
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then the epoch baseline is exactly the baseline sent in request 1

  @EPO-07 @id:epo-epochs-6 @needs:kit-sources
  Scenario: [6] A moved session starts a fresh epoch from its destination's context
    Given a session "s1"
    And the contributor "kit/here" contributes the context sources:
      | key          |
      | kit/here.one |
    And the contributor "kit/there" contributes the context sources in the workspace "elsewhere":
      | key           |
      | kit/there.one |
    And the context source "kit/here.one" has the value '"here"'
    And the context source "kit/there.one" has the value '"there"'
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When session "s1" moves to a new workspace "elsewhere"
    Then the session has no context epoch
    When the user steers "two"
    And the session settles
    Then request 2 has the kit context in its baseline:
      | kit/there.one = "there" |
    And the baseline of request 2 does not contain "kit/here.one"
    And request 2 has no system message
    And request 2 ends with:
      | role      | content |
      | user      | one     |
      | assistant | first   |
      | user      | two     |

  @EPO-08 @profile:core @id:epo-epochs-7 @needs:kit-sources
  Scenario: [7] A model switch keeps the epoch and the history, and applies from the next turn
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the session selects the model "kit-model-2"
    And the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    Then request 1 uses the model "kit-model"
    And request 2 uses the model "kit-model-2"
    And the baselines of requests 1 and 2 are byte for byte the same
    And request 2 has the messages:
      | role      | content            |
      | user      | one                |
      | assistant | first              |
      | user      | two                |
      | system    | kit/a.one is now 2 |

  @EPO-06 @id:epo-epochs-8 @needs:kit-sources @needs:manual-compaction
  Scenario: [8] A completed compaction starts a new epoch from the current context
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider summarizes with "SUMMARY: the user said one and two"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    When the user asks for a compaction
    And the context source "kit/a.one" has the value "3"
    And the user steers "three"
    And the session settles
    Then the provider received 4 requests
    And request 4 has the kit context in its baseline:
      | kit/a.one = 3 |
    And request 4 has no system message
    And request 4 mentions "SUMMARY: the user said one and two" in its conversation
    And request 4 ends with:
      | role | content |
      | user | three   |
    # checks: EPO-06 MCS-05
    And the history still holds the system message "kit/a.one is now 2"
    # checks: EPO-06 CMP-06
    And the session's compactions are:
      | status    | summary                            |
      | completed | SUMMARY: the user said one and two |

  @EPO-09 @id:epo-epochs-9 @needs:kit-sources @needs:manual-compaction
  Scenario: [9] After a compaction, an unavailable admitted source blocks the new baseline; a never-admitted one does not
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider summarizes with "SUMMARY: one"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the user asks for a compaction
    And the context source "kit/a.one" is unavailable
    And the contributor "kit/b" contributes the context sources:
      | key       |
      | kit/b.new |
    And the context source "kit/b.new" is unavailable
    And the user steers "two"
    And the session settles
    Then every request after request 2 keeps the baseline of request 1
    And if no request went out after request 2, the session reports the failure "context-unavailable" mentioning "kit/a.one"
    When the context source "kit/a.one" has the value "5"
    And the session is run
    And the session settles
    Then the last request has the kit context in its baseline:
      | kit/a.one = 5 |
    And the last request mentions "two" in its conversation

  @EPO-10 @id:epo-environment-1 @needs:virtual-clock
  Scenario: [10] The first baseline holds the working directory, the date and the project instructions
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And a session "s1" working in "pkg" of the project "project"
    And the clock is at "2026-03-07T10:00:00Z"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then the baseline of request 1 names the working directory of "s1"
    And the baseline of request 1 names the date "2026-03-07"
    # checks: EPO-10 INS-01
    And the baseline of request 1 contains, in order:
      | ROOT: run the tests |

  @EPO-07 @EPO-02 @RUN-08 @id:epo-moved-unavailable-1 @needs:kit-sources
  Scenario: [11] A session moved to a location whose source is unavailable sends nothing until it loads, then begins the epoch there
    Given a session "s1"
    And the contributor "kit/here" contributes the context sources:
      | key          |
      | kit/here.one |
    And the contributor "kit/there" contributes the context sources in the workspace "elsewhere":
      | key           |
      | kit/there.one |
    And the context source "kit/here.one" has the value '"here"'
    And the context source "kit/there.one" is unavailable
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When session "s1" moves to a new workspace "elsewhere"
    And the user steers "two"
    And the session settles
    # checks: RUN-08
    Then no request after request 1 contains "kit/here.one"
    # checks: EPO-02 EPO-07
    And the provider received 1 request
    # checks: EPO-02 EPO-07
    And the inbox is:
      | text | state    |
      | one  | promoted |
      | two  | pending  |
    # checks: EPO-07
    And the session has no context epoch
    When the context source "kit/there.one" has the value '"there"'
    And the session is run
    And the session settles
    # checks: EPO-02
    Then the provider received 2 requests
    # checks: EPO-02
    And request 2 ends with:
      | role      | content |
      | user      | one     |
      | assistant | first   |
      | user      | two     |
    # checks: EPO-07
    And request 2 has the kit context in its baseline:
      | kit/there.one = "there" |
    # checks: RUN-08
    And the baseline of request 2 does not contain "kit/here.one"

  @EPO-08 @profile:core @needs:restart @id:epo-model-restart-1
  Scenario: [12] A model switch made before a restart applies to the first turn after it
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the session selects the model "kit-model-2"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 1 uses the model "kit-model"
    # checks: EPO-08 AGT-01
    And request 2 uses the model "kit-model-2"

  @EPO-08 @profile:core @needs:restart @needs:kit-sources @id:epo-provider-switch-1
  Scenario: [13] A switch to a provider of another dialect keeps the epoch and the history
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the user steers "one"
    And the session settles
    # checks: INB-06
    When the runtime process restarts talking to a provider of another dialect
    # The contributor belongs to the process: it contributes again in the new one.
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "2"
    And the provider replies "second"
    And the user steers "two"
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/a.one = 1 |
    And request 1 has the messages:
      | role      | content            |
      | user      | one                |
      | assistant | first              |
      | user      | two                |
      | system    | kit/a.one is now 2 |
