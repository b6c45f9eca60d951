@area:context
Feature: ContextSources2 - Sources that appear, disappear and change lazily
  Sources can load for the first time, be registered late, go absent or be removed with their
  contributor. Changes are compared by encoded value and sampled only at Safe Provider-Turn
  Boundaries. Texts are the kit-defined renderings described in ContextSources1.

  @CTX-08 @id:ctx-sources-8 @needs:kit-sources
  Scenario: [1] A source never loaded is left out until its first load, then rendered once
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the user steers "one"
    And the session settles
    And the contributor "kit/late" contributes the context sources:
      | key          |
      | kit/late.one |
    And the context source "kit/late.one" is unavailable
    When the user steers "two"
    And the session settles
    Then request 2 has no system message
    When the context source "kit/late.one" has the value "5"
    And the user steers "three"
    And the session settles
    And the user steers "four"
    And the session settles
    Then the last system message of request 3 is:
      """
      kit/late.one = 5
      """
    And request 4 has 1 system message

  @CTX-09 @id:ctx-sources-9 @needs:kit-sources
  Scenario: [2] An absent removable source emits the removal text rendered for its last admitted value
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       | removable |
      | kit/a.one | yes       |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    # checks: CTX-09
    And the epoch holds the removal text "kit/a.one (was 2) no longer applies" for "kit/a.one"
    When the context source "kit/a.one" is absent
    And the user steers "three"
    And the session settles
    Then the last system message of request 3 is:
      """
      kit/a.one (was 2) no longer applies
      """
    And the epoch holds nothing for "kit/a.one"

  @CTX-10 @id:ctx-sources-10 @needs:kit-sources
  Scenario: [3] A newly registered source is rendered once, at the next boundary
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the contributor "kit/new" contributes the context sources:
      | key         |
      | kit/new.one |
    And the context source "kit/new.one" has the value '"hello"'
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    Then the last system message of request 2 is:
      """
      kit/new.one = "hello"
      """
    And request 3 has 1 system message

  @CTX-11 @id:ctx-sources-11 @needs:kit-sources
  Scenario: [4] Removing a contributor removes its sources at the next boundary
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key        | removable |
      | kit/a.keep | no        |
      | kit/a.gone | yes       |
    And the context source "kit/a.keep" has the value "1"
    And the context source "kit/a.gone" has the value "2"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the contributor "kit/a" is removed
    And the user steers "two"
    And the session settles
    Then the last system message of request 2 is:
      """
      kit/a.gone (was 2) no longer applies
      """
    And the epoch holds nothing for "kit/a.gone"

  @CTX-12 @profile:core @id:ctx-sources-12 @needs:kit-sources
  Scenario: [5] Change detection compares encoded values, not rendered text
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       | removable |
      | kit/a.one | yes       |
    And the context source "kit/a.one" has the value '{"a": 1, "b": 2}'
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value '{"b": 2, "a": 1}'
    And the user steers "two"
    And the session settles
    # checks: CTX-12 CTX-04
    Then request 2 has no system message
    And the epoch holds "kit/a.one" as '{"a": 1, "b": 2}'
    # checks: CTX-12 CTX-09
    And the epoch holds the removal text 'kit/a.one (was {"a":1,"b":2}) no longer applies' for "kit/a.one"

  @CTX-13 @id:ctx-sources-13 @needs:kit-sources
  Scenario: [6] A value that changes and changes back between boundaries produces nothing
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
    And the context source "kit/a.one" has the value "3"
    And the context source "kit/a.one" has the value "1"
    And the user steers "two"
    And the session settles
    # checks: CTX-13 CTX-04
    Then request 2 has no system message

  @CTX-14 @id:ctx-sources-14 @needs:kit-sources @needs:virtual-clock
  Scenario: [7] A context change never wakes an idle session
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2"
    And the clock is at "2026-01-20T09:00:00Z"
    And the session settles
    Then the provider received 1 request

  @CTX-15 @id:ctx-sources-15 @needs:kit-sources @needs:manual-compaction @needs:reconcile
  Scenario: [8] Reconciling yields exactly one of unchanged, updated, replacement ready and replacement blocked
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider summarizes with "SUMMARY: one"
    And the user steers "one"
    And the session settles
    Then reconciling the context now would be "unchanged"
    When the context source "kit/a.one" has the value "2"
    Then reconciling the context now would be "updated"
    When the user asks for a compaction
    And the context source "kit/a.one" is unavailable
    And the user steers "two"
    And the session settles
    Then reconciling the context now would be "replacement-blocked"
    When the context source "kit/a.one" has the value "3"
    Then reconciling the context now would be "replacement-ready"

  @CTX-17 @needs:kit-sources @id:ctx-empty-1
  Scenario: [9] An empty contribution and sources that are all absent leave a valid context, and turns run
    Given a session "s1"
    And the contributor "kit/empty" contributes the context sources:
      | key |
    And the contributor "kit/a" contributes the context sources:
      | key       | removable |
      | kit/a.one | yes       |
    And the context source "kit/a.one" is absent
    And the provider replies "first"
    And the provider replies "second"
    When the user steers "hello"
    And the session settles
    Then the provider received 1 request
    And the baseline of request 1 does not contain "kit/"
    # checks: CTX-17 EPO-01
    And request 1 has no system message
    When the user steers "again"
    And the session settles
    Then the provider received 2 requests
    And request 2 has no system message
    # checks: CTX-17 EPO-04
    And the baselines of requests 1 and 2 are byte for byte the same

  @CTX-16 @needs:kit-sources @id:ctx-one-observation-1 @needs:kit-tools
  Scenario: [10] A value that changes while a boundary observes it is sent and stored as observed, and announced at the next boundary
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1", which changes to "2" once it is read
    And the provider calls gate "g1"
    And the provider calls echo "step"
    And the provider replies "done"
    And the user steers "hello"
    And the gate "g1" is blocked
    When the context source "kit/a.one" has the value "2", which changes to "3" once it is read
    And the gate "g1" opens
    And the session settles
    Then the provider received 3 requests
    And request 1 has the kit context in its baseline:
      | kit/a.one = 1 |
    And the last system message of request 2 is:
      """
      kit/a.one is now 2
      """
    And request 3 has 2 system messages
    And the last system message of request 3 is:
      """
      kit/a.one is now 3
      """
    And the epoch holds "kit/a.one" as "3"

  @CTX-13 @profile:core @id:ctx-sources-13-between @needs:kit-sources @needs:kit-tools
  Scenario: [11] A value that changes and changes back while a tool runs produces nothing, though input arrives and the model is switched in between
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "hello"
    And the gate "g1" is blocked
    When the context source "kit/a.one" has the value "2"
    And the user steers "more"
    And the context source "kit/a.one" has the value "3"
    And the session selects the model "kit-model-2"
    And the context source "kit/a.one" has the value "1"
    And the gate "g1" opens
    And the session settles
    Then the provider received 2 requests
    And request 2 has no system message
    And the epoch holds "kit/a.one" as "1"

  @CTX-12 @id:ctx-sources-12-back @needs:kit-sources
  Scenario: [12] A value compared with the one last admitted: going back to a value told earlier is a change again
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the user steers "one"
    And the session settles
    And the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    When the context source "kit/a.one" has the value "1"
    And the user steers "three"
    And the session settles
    And the user steers "four"
    And the session settles
    Then the last system message of request 2 is:
      """
      kit/a.one is now 2
      """
    And the last system message of request 3 is:
      """
      kit/a.one is now 1
      """
    And request 4 has 2 system messages
