@area:inbox
Feature: Execution1 - Run, wake and interrupt
  `run` is an explicit resume, `wake` only delivers newly admitted input, and `interrupt` stops the
  active drain while keeping what is still pending in the inbox.

  @INB-12 @id:inb-execution-1
  Scenario: [1] Run makes one provider attempt even with no eligible input
    Given a session "s1"
    And the provider replies with the recording "text-hello"
    When the session is run
    And the session settles
    Then the provider received 1 request
    And request 1 has the messages:
      | role | content |
    And the history is:
      | role      | content                 |
      | assistant | Hello! How can I help? |

  @INB-12 @id:inb-execution-2
  Scenario: [2] Run joins the active drain instead of starting another
    Given a session "s1"
    And the provider holds its reply "hi" until "reply" is released
    And the user steers "hello"
    And the provider has received 1 request
    When the session is run
    And the session is run
    And the held reply "reply" is released
    And the session settles
    # A request more is a second drain of the session beside the first.
    # checks: INB-12 RUN-07
    Then the provider received 1 request

  @INB-13 @id:inb-execution-3
  Scenario: [3] A wake with no eligible input calls no provider
    Given a session "s1"
    And the provider replies "hi"
    And the user steers "hello"
    And the session settles
    When the session is woken
    And the session settles
    Then the provider received 1 request

  @INB-13 @id:inb-execution-4
  Scenario: [4] Repeated wakes for one prompt coalesce into one provider turn
    Given a session "s1"
    And the provider replies "hi"
    And the user admits "hello" with id "m1" and no resume
    When the session is woken
    And the session is woken
    And the session is woken
    And the session settles
    Then the provider received 1 request

  @INB-14 @id:inb-execution-5 @needs:kit-tools
  Scenario: [5] Interrupt stops the drain, suppresses its reruns and keeps pending prompts
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "later handled"
    And the user steers "start"
    And the gate "g1" is blocked
    And the user queues "later"
    When the session is interrupted
    And the session settles
    Then the provider received 1 request
    And the inbox is:
      | text  | delivery | state    |
      | start | steer    | promoted |
      | later | queue    | pending  |
    # checks: INB-14
    And the history has the tool call "gate" settled, no longer running
    When the session is woken
    And the session settles
    Then the provider received 2 requests
    And request 2 ends with:
      | role | content |
      | user | later   |

  @INB-14 @id:inb-execution-6
  Scenario: [6] Interrupting an idle or unknown session does nothing
    Given a session "s1"
    When the session is interrupted
    # checks: INB-14
    And session "missing" is interrupted
    Then the provider received 0 requests

  @INB-14 @INB-13 @id:inb-interrupt-streaming-1
  Scenario: [7] Interrupt during a provider stream stops the drain at once, records nothing of the stream and keeps the pending prompts for a later wake
    Given a session "s1"
    And the provider holds its reply "never finished" until "reply" is released
    And the provider replies "later handled"
    And the user steers "start"
    And the provider has received 1 request
    And the user queues "later"
    When the session is interrupted
    And the held reply "reply" is released
    And the session settles
    # checks: INB-14
    Then the provider received 1 request
    # checks: INB-14
    And the inbox is:
      | text  | delivery | state    |
      | start | steer    | promoted |
      | later | queue    | pending  |
    # checks: INB-14
    And the session reports no failure
    When the session is woken
    And the session settles
    # checks: INB-13 INB-14
    Then the wake either left "later" pending with no request, or promoted it in request 2 after the unanswered "start"

  @INB-12 @INB-14 @id:inb-interrupt-run-1
  Scenario: [7b] After an interrupt cut a provider stream, a run continues from the unanswered prompt, then the pending one follows
    Given a session "s1"
    And the provider holds its reply "never finished" until "reply" is released
    And the provider replies "started"
    And the provider replies "later handled"
    And the user steers "start"
    And the provider has received 1 request
    And the user queues "later"
    When the session is interrupted
    And the held reply "reply" is released
    And the session settles
    And the session is run
    And the session settles
    # The run's own attempt is request 2 (INB-12's); that it goes on from the unanswered prompt, and
    # the prompt kept through the interrupt follows, is INB-14's.
    # checks: INB-12
    Then the provider received at least 2 requests
    # checks: INB-14
    And request 2 ends with:
      | role | content |
      | user | start   |
    # checks: INB-14
    And the provider received 3 requests
    # checks: INB-14
    And request 3 ends with:
      | role      | content |
      | user      | start   |
      | assistant | started |
      | user      | later   |

  @INB-14 @id:inb-interrupt-held-drain-1 @needs:kit-sources @needs:kit-tools
  Scenario: [8] Interrupt returns only once its drain is over: a run right after it starts a drain of its own
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "after the interrupt"
    And the user steers "one"
    And the session settles
    And the context source "kit/a.one" has the value "2", read only once the gate "g1" opens
    And the user steers "two"
    And the gate "g1" is blocked
    When the session is interrupted while the gate "g1" holds its drain, and run once the interrupt returns
    And the session settles
    Then the provider received 2 requests
    And request 2 has 1 user message "two"

  @INB-14 @id:inb-interrupt-restart-1 @needs:kit-tools @needs:restart
  Scenario: [9] A prompt an interrupt kept pending is promoted by a wake after the runtime restarts
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "later handled"
    And the user steers "start"
    And the gate "g1" is blocked
    And the user queues "later"
    When the session is interrupted
    And the session settles
    # checks: INB-06
    And the runtime process restarts
    And the session is woken
    And the session settles
    Then the provider received 2 requests
    And request 2 ends with:
      | role | content |
      | user | later   |
