@area:inbox
Feature: Admission1 - Creating sessions and admitting prompts
  A session is created idempotently on its ID, and a prompt is admitted to the durable inbox
  exactly once per message ID. An admitted prompt stays out of the model's sight until promoted.

  @INB-01 @id:inb-admission-1
  Scenario: [1] A session created without an ID gets a generated one
    When a session is created without an ID
    And a session is created without an ID
    Then both sessions are new and have different IDs

  @INB-01 @id:inb-admission-2
  Scenario: [2] Reusing a session ID returns the existing session
    Given a session "alpha"
    And the provider replies "hi"
    And the user steers "hello"
    And the session settles
    # checks: INB-01
    When a session "alpha" is created again
    Then the session was not created anew
    And the history has 1 user message "hello"

  @INB-02 @id:inb-admission-3
  Scenario: [3] A prompt without an ID gets a generated message ID
    Given a session "s1"
    When the user admits "hello" with no resume
    Then the receipt is the one of a new admission of "hello", pending
    And the inbox is:
      | text  | delivery | state   |
      | hello | default  | pending |

  @INB-02 @id:inb-admission-4
  Scenario: [4] An exact retry returns the same receipt and admits nothing more
    Given a session "s1"
    And the user admits "hello" with id "m1" and no resume
    # checks: INB-02
    When the user admits "hello" with id "m1" and no resume
    Then the receipt is the one of the first admission of "m1", pending
    And the inbox is:
      | id | text  | delivery | state   |
      | m1 | hello | default  | pending |

  @INB-03 @id:inb-admission-5
  Scenario Outline: [5] Reusing a message ID with <difference> fails and changes nothing
    Given a session "s1"
    And a session "s2"
    And the user admits "hello" as steer to session "s1" with id "m1" and no resume
    When the user admits <text> as <delivery> to session <session> with id "m1" and no resume
    Then the admission fails with "conflict"
    And the inbox is:
      | id | text  | delivery | state   |
      | m1 | hello | steer    | pending |
    And the inbox of session "s2" holds 0 prompts
    # checks: INB-03 INB-04
    And the provider received 0 requests

    Examples:
      | difference           | text      | delivery | session |
      | another prompt       | "goodbye" | steer    | "s1"    |
      | another delivery     | "hello"   | queue    | "s1"    |
      | another session      | "hello"   | steer    | "s2"    |

  @INB-04 @id:inb-admission-7
  Scenario: [7] An admission with resume false sends no request
    Given a session "s1"
    When the user admits "hello" with id "m1" and no resume
    And the session settles
    Then the provider received 0 requests
    And the inbox is:
      | id | text  | delivery | state   |
      | m1 | hello | default  | pending |

  @INB-04 @id:inb-admission-8 @needs:restart
  Scenario: [8] An exact retry with resume schedules another wake after a restart, and one after another restart returns the first receipt
    Given a session "s1"
    And the provider replies "hi"
    And the user admits "hello" with id "m1" and no resume
    # checks: INB-06
    When the runtime process restarts
    And the user admits "hello" with id "m1"
    And the session settles
    Then the provider received 1 request
    # The exact retry stores the prompt once: INB-02's.
    # checks: INB-02
    And request 1 has 1 user message "hello"
    # checks: INB-06
    When the runtime process restarts
    And the user admits "hello" with id "m1" and no resume
    # checks: INB-02
    Then the receipt is the one of the first admission of "m1", promoted
    # checks: INB-02
    And the inbox is:
      | id | state    |
      | m1 | promoted |

  @INB-04 @id:inb-admission-repeat-held-1 @needs:restart
  Scenario: [8b] An exact repeat with resume false wakes nothing either, in the process that held the prompt or after a restart
    Given a session "s1"
    And the user admits "hello" with id "m1" and no resume
    When the user admits "hello" with id "m1" and no resume
    And the session settles
    Then the provider received 0 requests
    # checks: INB-06
    When the runtime process restarts
    And the user admits "hello" with id "m1" and no resume
    And the session settles
    Then the provider received 0 requests
    And the inbox is:
      | id | text  | delivery | state   |
      | m1 | hello | default  | pending |

  @INB-05 @id:inb-admission-9 @needs:kit-tools
  Scenario: [9] An admitted prompt is not model-visible until it is promoted
    Given a session "s1"
    And the provider calls gate "g1"
    And the provider replies "first done"
    And the provider replies "second done"
    And the user steers "first"
    And the gate "g1" is blocked
    When the user queues "second"
    Then the history has no user message "second"
    When the gate "g1" opens
    And the session settles
    # checks: INB-05 INB-10
    Then request 2 has no user message "second"
    # checks: INB-05 INB-11
    And request 3 ends with:
      | role      | content    |
      | assistant | first done |
      | user      | second     |

  @INB-03 @id:inb-admission-10
  Scenario: [10] Reusing a message ID for the same text with an attachment fails and changes nothing
    Given a session "s1"
    And the user admits "hello" with id "m1" and no resume
    When the user admits "hello" with an image and id "m1" and no resume
    Then the admission fails with "conflict"
    And the inbox is:
      | id | text  | delivery | state   |
      | m1 | hello | default  | pending |

  @INB-03 @id:inb-admission-conflict-resume-1
  Scenario: [10b] A refused reuse of a message ID wakes nothing, though it does not say resume false
    Given a session "s1"
    And the provider replies "hi"
    And the user admits "hello" with id "m1" and no resume
    When the user admits "goodbye" with id "m1"
    Then the admission fails with "conflict"
    When the session settles
    Then the provider received 0 requests
    And the inbox is:
      | id | text  | state   |
      | m1 | hello | pending |
