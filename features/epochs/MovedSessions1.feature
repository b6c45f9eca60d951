@area:epochs
Feature: MovedSessions1 - A session moved to a location whose context cannot load
  A move ends the session's epoch. When a source of the destination is unavailable, nothing is
  sent and the prompt stays pending: the old location's context never stands in for it. Kit
  sources render as described in features/context/ContextSources1.feature.

  @EPO-02 @RUN-08 @id:epo-moved-unavailable-1 @needs:kit-sources
  Scenario: [1] Moved to a destination whose source is unavailable, the session sends nothing until it loads, and never with the old context
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
    Then the provider received 1 request
    And the session has no context epoch
    And the inbox is:
      | text | state    |
      | one  | promoted |
      | two  | pending  |
    When the context source "kit/there.one" has the value '"there"'
    And the session is run
    And the session settles
    Then the provider received 2 requests
    And request 2 has the kit context in its baseline:
      | kit/there.one = "there" |
    And the baseline of request 2 does not contain "kit/here.one"
