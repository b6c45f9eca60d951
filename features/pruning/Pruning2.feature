@area:pruning
Feature: Pruning2 - Reported token usage and the overflow check
  A runtime of profile sol counts the tokens the provider reports for its newest response (input,
  cache reads and output) and compacts once they exceed the context window minus an output
  reserve of at most 32000 tokens. Each report replaces the count before it.

  Background:
    Given a session "s1"
    And the context window is 100000 tokens with an output allowance of 4000 and a compaction buffer of 2000

  @PRU-02 @profile:sol @dialect:openai-chat @id:pru-usage-1
  Scenario: [1] Input, cache reads and output together beyond the window minus the reserve call for a compaction
    Given the provider replies "first" reporting 80000 input, 10000 cached and 6001 output tokens
    And the provider summarizes with "SUMMARY: first"
    And the provider replies "second" to every later turn
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    # checks: PRU-02
    Then the session has 1 completed compactions
    And the last request mentions "SUMMARY: first" in its conversation

  @PRU-02 @profile:sol @dialect:openai-chat @id:pru-usage-2
  Scenario: [2] Usage exactly at the window minus the reserve is not an overflow
    Given the provider replies "first" reporting 80000 input, 10000 cached and 6000 output tokens
    And the provider replies "second" to every later turn
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    # checks: PRU-02
    Then the session has 0 completed compactions
    And the provider received 2 requests

  @PRU-05 @profile:sol @dialect:openai-chat @id:pru-usage-3
  Scenario: [3] A newer usage report replaces the count instead of adding to it
    Given the provider replies "first" reporting 60000 input, 0 cached and 1000 output tokens
    And the provider replies "second" reporting 40000 input, 0 cached and 1000 output tokens
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user steers "three"
    # checks: PRU-05
    And the session settles
    Then the provider received 3 requests
    # checks: PRU-05
    And the session has 0 completed compactions

  @PRU-02 @profile:sol @dialect:openai-chat @id:pru-usage-cap-1
  Scenario: [4] An output allowance above 32000 reserves 32000 tokens only
    Given the context window is 100000 tokens with an output allowance of 40000 and a compaction buffer of 2000
    And the provider replies "first" reporting 60000 input, 0 cached and 7000 output tokens
    And the provider replies "second" to every later turn
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    Then the provider received 2 requests
    # checks: PRU-02
    And the session has 0 completed compactions

  @PRU-05 @profile:sol @dialect:openai-chat @id:pru-usage-newest-1 @needs:restart
  Scenario: [5] The newest usage report counts, not an older one, and none from before a compaction counts after it
    Given the provider replies "first" reporting 10000 input, 0 cached and 1000 output tokens
    And the provider replies "second" reporting 90000 input, 0 cached and 7000 output tokens
    And the provider summarizes with "SUMMARY: two turns"
    And the provider replies "later" reporting no usage to every later turn
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user steers "three"
    And the session settles
    # The compaction may follow the step whose usage overflowed, with its continuation, or precede "three".
    Then the last request ends with the pending input "three"
    And the last request mentions "SUMMARY: two turns" in its conversation
    # checks: PRU-05
    And the session has 1 completed compaction
    # checks: INB-06
    When the runtime process restarts
    And the context window is 100000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the user steers "four"
    And the session settles
    Then the last request ends with the pending input "four"
    And the last request mentions "SUMMARY: two turns" in its conversation
    # checks: PRU-05
    And the session has 1 completed compaction
