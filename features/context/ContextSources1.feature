@area:context
Feature: ContextSources1 - Composing and changing Context Sources
  The System Context is composed from Context Sources. These scenarios use sources whose
  renderers the kit defines (baseline `<key> = <json>`, update `<key> is now <json>`, removal
  `<key> (was <json>) no longer applies`), so every runtime must produce exactly these texts.

  @CTX-01 @id:ctx-sources-1 @needs:kit-sources
  Scenario: [1] Two sources with the same key fail composition, naming the key, and nothing is sent
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key     |
      | kit/dup |
    And the contributor "kit/b" contributes the context sources:
      | key     |
      | kit/dup |
    And the context source "kit/dup" has the value "1"
    When the user steers "hello"
    And the session settles
    Then the provider received 0 requests
    And the session reports the failure "context-invalid" mentioning "kit/dup"

  @CTX-01 @id:ctx-sources-1-namespaced @needs:kit-sources
  Scenario: [1n] Two sources of one name under two contributors are two sources, each under its own key from boundary to boundary
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key        |
      | kit/a/mode |
    And the contributor "kit/b" contributes the context sources:
      | key        |
      | kit/b/mode |
    And the context source "kit/a/mode" has the value '"fast"'
    And the context source "kit/b/mode" has the value '"slow"'
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/b/mode" has the value '"steady"'
    And the user steers "two"
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/a/mode = "fast" |
      | kit/b/mode = "slow" |
    And the last system message of request 2 is:
      """
      kit/b/mode is now "steady"
      """
    And the epoch holds "kit/a/mode" as '"fast"'
    And the epoch holds "kit/b/mode" as '"steady"'

  @CTX-02 @profile:core @id:ctx-sources-2 @needs:kit-sources
  Scenario: [2] Sources combined by one contributor keep the contributor's order, whatever the order of loading
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       | latency |
      | kit/a.zed | 6       |
      | kit/a.mid | 3       |
      | kit/a.ant | 0       |
    And the context source "kit/a.zed" has the value "1"
    And the context source "kit/a.mid" has the value "2"
    And the context source "kit/a.ant" has the value "3"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/a.zed = 1 |
      | kit/a.mid = 2 |
      | kit/a.ant = 3 |

  @CTX-03 @profile:core @id:ctx-sources-3 @needs:kit-sources
  Scenario: [3] The registry combines contributors in contribution-key order, whatever the order of registration or of loading
    Given a session "s1"
    And the contributor "kit/c" contributes the context sources:
      | key       | latency |
      | kit/c.one | 0       |
    And the contributor "kit/a" contributes the context sources:
      | key       | latency |
      | kit/a.one | 8       |
    And the contributor "kit/b" contributes the context sources:
      | key       | latency |
      | kit/b.one | 3       |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/b.one" has the value "2"
    And the context source "kit/c.one" has the value "3"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/a.one = 1 |
      | kit/b.one = 2 |
      | kit/c.one = 3 |

  @CTX-04 @id:ctx-sources-4 @needs:kit-sources
  Scenario: [4] An unchanged source produces no system message
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value '{"mode": "fast"}'
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value '{"mode": "fast"}'
    And the user steers "two"
    And the session settles
    Then request 2 has no system message

  @CTX-05 @id:ctx-sources-5 @needs:kit-sources
  Scenario: [5] A changed source states its newly effective value only
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value '"before"'
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value '"after"'
    And the user steers "two"
    And the session settles
    Then the last system message of request 2 is:
      """
      kit/a.one is now "after"
      """

  @CTX-06 @id:ctx-sources-6 @needs:kit-sources
  Scenario: [6] Changes of several sources at one boundary form one system message in stable order
    Given a session "s1"
    And the contributor "kit/b" contributes the context sources:
      | key       |
      | kit/b.one |
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
      | kit/a.two |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/a.two" has the value "1"
    And the context source "kit/b.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/b.one" has the value "2"
    And the context source "kit/a.two" has the value "2"
    And the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    Then request 2 has 1 system message
    And the last system message of request 2 is:
      """
      kit/a.one is now 2

      kit/a.two is now 2

      kit/b.one is now 2
      """

  @CTX-07 @id:ctx-sources-7 @needs:kit-sources
  Scenario: [7] An unavailable source keeps its admitted value until it loads again
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
      | kit/a.two |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/a.two" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" is unavailable
    And the context source "kit/a.two" has the value "2"
    And the user steers "two"
    And the session settles
    Then the last system message of request 2 is:
      """
      kit/a.two is now 2
      """
    And the epoch holds "kit/a.one" as "1"
    When the context source "kit/a.one" has the value "2"
    And the user steers "three"
    And the session settles
    Then the last system message of request 3 is:
      """
      kit/a.one is now 2
      """

  @CTX-04 @profile:core @id:ctx-sources-4-key-order @needs:kit-sources
  Scenario: [8] A source set to an equal value with its keys in another order produces no system message
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value '{"mode": "fast", "limits": {"depth": 2, "width": 8}}'
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value '{"limits": {"width": 8, "depth": 2}, "mode": "fast"}'
    And the user steers "two"
    And the session settles
    # checks: CTX-04 CTX-12
    Then request 2 has no system message
    When the context source "kit/a.one" has the value '{"limits": {"width": 9, "depth": 2}, "mode": "fast"}'
    And the user steers "three"
    And the session settles
    # checks: CTX-05
    Then request 3 has 1 system message

  @CTX-03 @id:ctx-sources-concurrent-1 @needs:kit-sources @needs:kit-tools
  Scenario: [14] The sources of two contributors are read at the same time, when the epoch begins and at a later boundary
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the contributor "kit/b" contributes the context sources:
      | key       |
      | kit/b.one |
    And the context source "kit/a.one" has the value "1", read only once the gate "ga1" opens
    And the context source "kit/b.one" has the value "2", read only once the gate "gb1" opens
    And the provider replies "first"
    And the provider replies "second"
    When the user steers "one"
    # checks: CTX-03
    And the gates "ga1" and "gb1" are blocked at the same time
    And the gate "ga1" opens
    And the gate "gb1" opens
    And the session settles
    And the context source "kit/a.one" has the value "3", read only once the gate "ga2" opens
    And the context source "kit/b.one" has the value "4", read only once the gate "gb2" opens
    And the user steers "two"
    # checks: CTX-03
    And the gates "gb2" and "ga2" are blocked at the same time
    And the gate "gb2" opens
    And the gate "ga2" opens
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/a.one = 1 |
      | kit/b.one = 2 |
    And request 2 has 1 system message
    And the last system message of request 2 is:
      """
      kit/a.one is now 3

      kit/b.one is now 4
      """
