@area:runner
Feature: Replay1 - Durable order and event replay
  Projected history follows the durable event sequence, and durable events can be replayed after a
  cursor and then tailed live with nothing missed, nothing repeated and no live-only fragments.

  # The prompts name their delivery: the delivery of a prompt that names none is an open choice
  # (prompt.default-delivery), and under queue each would promote as its own activity.
  @RUN-05 @id:run-replay-1 @needs:virtual-clock
  Scenario: [1] History follows durable order, not message IDs or timestamps
    Given a session "s1"
    And the provider replies "ok"
    And the clock is at "2026-03-01T10:00:00Z"
    And the user admits "bravo" as steer with id "m-2" and no resume
    And the clock is at "2026-03-01T11:00:00Z"
    And the user admits "charlie" as steer with id "m-3" and no resume
    And the clock is at "2026-03-01T09:00:00Z"
    And the user admits "alpha" as steer with id "m-1" and no resume
    When the session is woken
    And the session settles
    Then the history is:
      | role      | content |
      | user      | bravo   |
      | user      | charlie |
      | user      | alpha   |
      | assistant | ok      |
    And request 1 has the messages:
      | role | content |
      | user | bravo   |
      | user | charlie |
      | user | alpha   |

  @RUN-05 @id:run-replay-5
  Scenario: [5] History follows admission order, not message IDs, without a virtual clock
    Given a session "s1"
    # Whether the three go out in one turn or several is INB-08's: the order is this rule's.
    And the provider replies "ok" to every later turn
    And the user admits "bravo" as steer with id "m-2" and no resume
    And the user admits "charlie" as steer with id "m-3" and no resume
    And the user admits "alpha" as steer with id "m-1" and no resume
    When the session is woken
    And the session settles
    Then the user messages of the history hold, once each and in order:
      | bravo   |
      | charlie |
      | alpha   |

  @RUN-05 @id:run-replay-promoted-later-1 @needs:restart
  Scenario: [7] A queued prompt admitted before an answer takes its place in history after it, where it was promoted
    Given a session "s1"
    And the provider replies "a1"
    And the provider replies "a2"
    And the user admits "q1" as queue with no resume
    And the user admits "q2" as queue with no resume
    When the session is woken
    And the session settles
    Then request 1 does not carry "q2", or nothing here is judged
    # checks: INB-06
    When the runtime process restarts
    Then the history is:
      | role      | content |
      | user      | q1      |
      | assistant | a1      |
      | user      | q2      |
      | assistant | a2      |

  @RUN-05 @id:run-replay-6 @needs:history-paging
  Scenario: [6] Pages of the history follow durable order, not message IDs
    Given a session "s1"
    And the provider replies "ok" to every later turn
    And the user admits "bravo" as steer with id "m-2"
    And the session settles
    And the user admits "charlie" as steer with id "m-3"
    And the session settles
    When the user admits "alpha" as steer with id "m-1"
    And the session settles
    Then the history read 2 messages a page, newest first, is:
      | page | role      | content |
      | 1    | user      | alpha   |
      | 1    | assistant | ok      |
      | 2    | user      | charlie |
      | 2    | assistant | ok      |
      | 3    | user      | bravo   |
      | 3    | assistant | ok      |

  @RUN-06 @id:run-replay-2 @needs:kit-tools
  Scenario: [2] Events replayed after a cursor continue live without a gap or a duplicate
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When a subscriber replays the events of "s1" after sequence 2 and keeps tailing
    And the gate "g1" opens
    And the session settles
    Then the subscriber received every durable event after sequence 2 exactly once, in order

  @RUN-06 @id:run-replay-3
  Scenario: [3] Live-only text fragments never enter the durable stream
    Given a session "s1"
    And a session "s2"
    And the provider replies to "one chunk" with "a reply of some length" in 1 chunk
    And the provider replies to "many chunks" with "a reply of some length" in 12 chunks
    When the user steers "one chunk" to session "s1"
    And the user steers "many chunks" to session "s2"
    And session "s1" settles
    And session "s2" settles
    Then sessions "s1" and "s2" have the same number of durable events

  @RUN-06 @dialect:anthropic-messages @dialect:openai-responses @dialect:gemini @id:run-replay-4 @needs:kit-tools
  Scenario: [4] Live-only reasoning and tool-input fragments never enter the durable stream
    Given a session "s1"
    And a session "s2"
    And the provider calls echo "a tool input of some length" with its input in 1 chunk
    And the provider replies "done" after reasoning "a line of reasoning of some length" in 1 chunk
    And the provider calls echo "a tool input of some length" with its input in 12 chunks
    And the provider replies "done" after reasoning "a line of reasoning of some length" in 12 chunks
    When the user steers "go" to session "s1"
    And session "s1" settles
    And the user steers "go" to session "s2"
    And session "s2" settles
    Then sessions "s1" and "s2" have the same number of durable events
