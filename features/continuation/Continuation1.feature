@area:continuation
Feature: Continuation1 - The message that lets a session go on after a compaction
  A runtime of profile continuation folds the whole active history, pending input included, and
  then injects one hidden user message so the work goes on without new input: the newest user
  message again when the model never answered it, otherwise a synthetic "continue". A pending
  message meets its compaction when the provider refuses it as too long; mid-task, summaries are
  told from turns, so the compaction may come before the turn found over budget or after the step
  whose reported usage overflowed: the seeds do not fix when. The output that brings a task over
  budget is prose, over the 20,000 tokens left at up to six characters a token and within the
  window at four: a tokenizer weighs it much as a character count does.

  Background:
    Given a session "s1"

  @CON-01 @CON-04 @CON-05 @profile:continuation @id:con-continuation-1 @needs:kit-tools
  Scenario: [1] A compaction in the middle of a task is followed by a synthetic continue
    Given the context window is 40000 tokens with an output allowance of 20000 and a compaction buffer of 2000
    And the tool output limit is 10 lines or 1000000 bytes
    And the provider tells summary requests from turns
    And the provider calls produce "p" with one line of 150000 characters of prose
    And the provider summarizes with "SUMMARY: produced a long output"
    And the provider replies "done" to every later turn
    When the user steers "one"
    And the session settles
    # Whether the runtime compacts there is CMP-01's: one that does not has no continuation to judge.
    # checks: CON-01 CON-04 CON-05
    Then the session has 1 completed compaction, or nothing here is judged
    # checks: CON-01
    And the last request mentions "SUMMARY: produced a long output" in its conversation
    # checks: CON-01
    And the session reports no failure
    # A continuation sent only once the model has ended its turn leaves the turn after the summary without one.
    # checks: CON-01
    And the request after the summary request ends with a user message after the one mentioning "SUMMARY: produced a long output"
    # checks: CON-04
    And the request after the summary request ends with the user message reading "continue"
    # What the history keeps of the continuation is read from the history, whenever it was sent.
    # checks independently: CON-04 CON-05
    And the newest user message in the history is a hidden continuation reading "continue"

  @CON-01 @CON-06 @profile:continuation @id:con-continuation-2
  Scenario: [2] A user message the model never answered is sent again after the compaction, not a continue
    Given the context budget holds a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    # A runtime that does not compact when the provider refuses a request as too long (CMP-10's) has
    # no continuation here to judge.
    # checks: CON-01 CON-06
    Then the session has 1 completed compaction, or nothing here is judged
    # checks: CON-01
    And the provider received 4 requests
    # checks: CON-01
    And request 4 mentions "SUMMARY: a long answer" in its conversation
    # checks: CON-06
    And request 4 has 1 user message "two"
    # checks: CON-01
    And the history has 2 user messages "two"
    # checks: CON-06 CON-03
    And request 4 ends with the user message reading "two"

  @CON-02 @CON-05 @profile:continuation @id:con-continuation-3
  Scenario: [3] A message with media is continued by its text alone, marked as resumed; the media are not sent again
    Given the context budget holds a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: a screenshot came"
    And the provider replies "done"
    And the user steers "Look at this first" with an image
    And the session settles
    When the user steers "Describe this screenshot" with an image
    And the session settles
    # A runtime that does not compact when the provider refuses a request as too long (CMP-10's) has
    # no continuation here to judge.
    # checks: CON-02 CON-05
    Then the session has 1 completed compaction, or nothing here is judged
    # checks: CON-02
    And request 1 carries 1 image
    # checks: CON-02 CON-01
    And the provider received 4 requests
    # checks: CON-02
    And request 4 carries 0 images
    # checks: CON-02 CON-05
    And the newest user message in the history is a hidden continuation of media that marks the resumption of "Describe this screenshot"

  @CON-02 @profile:continuation @id:con-continuation-4
  Scenario: [4] A message of media alone is continued by a placeholder
    Given the context budget holds a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: an image came"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers only an image
    And the session settles
    # A runtime that does not compact when the provider refuses a request as too long (CMP-10's) has
    # no continuation here to judge.
    Then the session has 1 completed compaction, or nothing here is judged
    # checks: CON-02 CON-01
    And the provider received 4 requests
    And request 4 carries 0 images
    # checks: CON-02 CON-05
    And the newest user message in the history is a hidden continuation of media with a placeholder text

  @CON-03 @CON-05 @profile:continuation @id:con-continuation-verbatim-1
  Scenario: [5] The replayed message keeps its words exactly, surrounding spaces included, and its metadata, marked as a continuation
    Given the context budget holds a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers "  two, then three  " with the metadata:
      """
      {"origin": "editor", "ticket": {"id": 42, "labels": ["urgent", ""]}, "draft": false}
      """
    And the session settles
    # A runtime that does not compact when the provider refuses a request as too long (CMP-10's) has
    # no continuation here to judge.
    # checks: CON-03 CON-05
    Then the session has 1 completed compaction, or nothing here is judged
    # checks: CON-03 CON-01
    And the provider received 4 requests
    # checks: CON-03
    And the newest user message in the history is a hidden continuation reading "  two, then three  " with the metadata:
      """
      {"origin": "editor", "ticket": {"id": 42, "labels": ["urgent", ""]}, "draft": false}
      """
    # checks: CON-05
    And request 4 ends with the user message reading "  two, then three  "

  @CON-02 @profile:continuation @id:con-continuation-empty-text-1
  Scenario: [6] A message whose text is empty beside its media has no text: it is continued by the placeholder, as one of media alone
    Given a session "s1"
    And a session "s2"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: an image came"
    And the provider replies "done"
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: an image came"
    And the provider replies "done"
    And the user steers "one" to session "s1"
    And session "s1" settles
    And the user steers "one" to session "s2"
    And session "s2" settles
    When the user steers "" with an image
    And session "s1" settles
    And the user steers only an image to session "s2"
    And session "s2" settles
    # checks: CON-02 CON-01
    Then the provider received 8 requests
    And request 5 carries 0 images
    And request 8 carries 0 images
    # checks: CON-02 CON-05
    And the newest user message in the history is a hidden continuation of media with the placeholder text of session "s2"

  @CON-04 @profile:continuation @id:con-continuation-no-user-1 @needs:kit-tools
  Scenario: [7] A compaction in a drain that holds no user message at all is followed by the same synthetic continue
    Given the context window is 40000 tokens with an output allowance of 20000 and a compaction buffer of 2000
    And the tool output limit is 10 lines or 1000000 bytes
    And the provider tells summary requests from turns
    And the provider calls produce "p" with one line of 150000 characters of prose
    And the provider summarizes with "SUMMARY: produced a long output"
    And the provider replies "done" to every later turn
    When the session is run
    And the session settles
    # checks: CON-01 CON-04
    Then the session has 1 completed compaction, or nothing here is judged
    And the request after the summary request ends with the user message reading "continue"
    And the newest user message in the history is a hidden continuation reading "continue"

  @CON-03 @CON-06 @profile:continuation @id:con-continuation-estimate-1
  Scenario: [8] A compaction the runtime's own estimate starts before a prompt's turn sends that prompt again after the summary, not a continue
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    # A second turn within budget: what the runtime keeps verbatim of its newest turn leaves the long reply to fold.
    And the user steers "one more"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "two"
    And the session settles
    # A runtime that does not compact before the turn (CMP-02's) has no continuation to judge.
    # checks: CON-03 CON-06
    Then request 3 asked for a summary rather than the turn "two", or nothing here is judged
    # checks: CON-03 CON-06
    And the session has 1 completed compaction, or nothing here is judged
    # The prompt was never answered: the continuation sends it again, which one decided after the
    # compaction, on a history holding no user message, would not.
    # checks: CON-03 CON-06
    And request 4 ends with the user message reading "two"
    # checks: CON-03
    And request 4 has 1 user message "two"
