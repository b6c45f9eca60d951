@area:continuation
Feature: Continuation1 - The message that lets a session go on after a compaction
  A runtime of profile continuation folds the whole active history, pending input included, and
  then injects one hidden user message so the work goes on without new input: the newest user
  message again when the model never answered it, otherwise a synthetic "continue".

  Background:
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000

  @CON-01 @CON-04 @CON-05 @profile:continuation @id:con-continuation-1 @needs:kit-tools
  Scenario: [1] A compaction in the middle of a task is followed by a synthetic continue
    Given the tool output limit is 10 lines or 1000000 bytes
    And the provider calls produce "p" with one line of 148000 "x"
    And the provider summarizes with "SUMMARY: produced a long output"
    And the provider replies "done"
    When the user steers "one"
    And the session settles
    Then the provider received 3 requests
    And request 3 mentions "SUMMARY: produced a long output" in its conversation
    And request 3 ends with the user message "continue"
    And the newest user message in the history is a hidden continuation reading "continue"
    And the session reports no failure

  @CON-01 @CON-03 @CON-05 @CON-06 @profile:continuation @id:con-continuation-2
  Scenario: [2] A user message the model never answered is replayed verbatim after the compaction
    Given the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    Then the provider received 3 requests
    And request 3 ends with the user message "two"
    And request 3 has 1 user message "two"
    And the newest user message in the history is a hidden continuation reading "two"
    And the history has 2 user messages "two"

  @CON-02 @CON-05 @profile:continuation @id:con-continuation-3
  Scenario: [3] A message with media is continued by its text alone, marked as resumed; the media are not sent again
    Given the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a screenshot came"
    And the provider replies "done"
    And the user steers "Look at this first" with an image
    And the session settles
    When the user steers "Describe this screenshot" with an image
    And the session settles
    Then request 1 carries 1 image
    And the provider received 3 requests
    And request 3 carries 0 images
    And the newest user message in the history is a hidden continuation of media that marks the resumption of "Describe this screenshot"

  @CON-02 @profile:continuation @id:con-continuation-4
  Scenario: [4] A message of media alone is continued by a placeholder
    Given the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: an image came"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers only an image
    And the session settles
    Then the provider received 3 requests
    And request 3 carries 0 images
    And the newest user message in the history is a hidden continuation of media with a placeholder text

  @CON-03 @profile:continuation @id:con-continuation-verbatim-1
  Scenario: [5] The replayed message keeps its words exactly, surrounding spaces included, and its metadata
    Given the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers "  two, then three  " with the metadata:
      """
      {"origin": "editor", "ticket": {"id": 42, "labels": ["urgent", ""]}, "draft": false}
      """
    And the session settles
    Then the provider received 3 requests
    And request 3 ends with the user message "  two, then three  "
    And the newest user message in the history is a hidden continuation reading "  two, then three  " with the metadata:
      """
      {"origin": "editor", "ticket": {"id": 42, "labels": ["urgent", ""]}, "draft": false}
      """
