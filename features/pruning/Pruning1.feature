@area:pruning
Feature: Pruning1 - Token estimate and pruning of old tool outputs
  A runtime of profile sol estimates a token per four characters, keeps the last two user turns
  and the newest 40000 tokens of tool output whole, and replaces older completed outputs with a
  text saying they were cleared, but only when that frees more than 20000 tokens. The seeds do not
  say when pruning runs (before a turn, or when the loop ends): an output prunable once the third
  turn began is read as pruned from the fourth on.

  Background:
    Given a session "s1"
    And the tool output limit is 10 lines or 1000000 bytes
    And the context window is 400000 tokens with an output allowance of 4000 and a compaction buffer of 2000, with prune on

  @PRU-03 @PRU-04 @profile:sol @id:pru-pruning-1 @needs:kit-tools
  Scenario: [1] Outputs older than the newest 40000 tokens are cleared for the model and kept whole
    Given the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # checks: PRU-03
    Then the provider received 7 requests
    # checks: PRU-04
    And request 7 reads the output of call "a" as the declared text "pruning.replacement"
    # checks: PRU-04
    And the history keeps 100000 characters of output for call "a", pruned
    # checks: PRU-03
    And request 7 reads the output of call "b" as the declared text "pruning.replacement"
    # checks: PRU-03
    And request 7 reads 100000 characters of output for call "c"
    # checks: PRU-03
    And the history keeps 100000 characters of output for call "c", unpruned

  @PRU-03 @profile:sol @id:pru-pruning-failed-1 @needs:kit-tools
  Scenario: [5] A failed call's output is not one of the outputs pruned
    Given the provider calls the tools:
      | id | name | input               |
      | f  | fail | {"message": "boom"} |
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And call "f" failed, where the runtime records a failing command as a failed call
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # checks: PRU-03 PRU-04
    Then request 8 reads the output of call "a" as the declared text "pruning.replacement"
    And request 8 shows the model the output of call "f"

  @PRU-01 @PRU-03 @profile:sol @id:pru-pruning-2 @needs:kit-tools
  Scenario: [2] Outputs beyond the newest 40000 tokens that would free less than 20000 tokens are not pruned
    Given the provider calls produce "a" with one line of 40000 "x"
    And the provider calls produce "b" with one line of 96000 "y"
    And the provider calls produce "c" with one line of 60000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user steers "three"
    And the session settles
    # checks: PRU-03
    Then the provider received 6 requests
    # checks: PRU-03
    And request 6 reads 40000 characters of output for call "a"
    # checks: PRU-03
    And the history keeps 40000 characters of output for call "a", unpruned
    # checks: PRU-01
    And request 6 reads 96000 characters of output for call "b"

  @PRU-03 @profile:sol @id:pru-pruning-3 @needs:kit-tools
  Scenario: [3] A runtime that keeps the last two user turns whole does not prune the outputs of the previous turn
    Given the runtime declares the choice "pruning.protects-last-two-turns"
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    Then the provider received 5 requests
    And request 5 reads 100000 characters of output for call "a"
    And the history keeps 100000 characters of output for call "a", unpruned

  @PRU-01 @profile:sol @id:pru-pruning-characters-1 @needs:kit-tools
  Scenario: [4] Characters are counted, not bytes: multibyte output is estimated by its length
    Given the provider calls produce "a" with one line of 40000 "x"
    And the provider calls produce "b" with one line of 96000 "y"
    And the provider calls produce "c" with one line of 60000 "é"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user steers "three"
    And the session settles
    Then the provider received 6 requests
    And request 6 reads 40000 characters of output for call "a"
    And request 6 reads 96000 characters of output for call "b"
    And request 6 reads 60000 characters of output for call "c"
