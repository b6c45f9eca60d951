@area:compaction
Feature: Compaction2 - Failed, repeated and overflow-triggered compaction
  A compaction that does not complete changes nothing the model sees; a later one updates the
  earlier summary; and a provider's context-overflow refusal triggers one compaction and one
  rebuilt attempt, never a loop.

  @CMP-07 @id:cmp-compaction-7
  Scenario: [1] A failed compaction leaves the previous history boundary active: the next request still carries the whole history
    Given a session "s1"
    And the context budget holds a long reply
    And the provider tells summary requests from turns
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider refuses the summary request with status 400
    And the provider replies to "SECOND-ASK" with "second reply"
    And the user steers "FIRST-ASK"
    And the session settles
    # A second turn within budget: what the runtime keeps verbatim of its newest turn leaves the long reply to fold.
    And the user steers "MIDDLE-ASK"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "SECOND-ASK"
    And the session settles
    Then request 3 asked for a summary rather than the turn "SECOND-ASK", or nothing here is judged
    And after the failed compaction in request 3, the pending turn "SECOND-ASK" stopped or ran once
    # checks: CMP-07
    And the session has 0 completed compactions
    When the context window grows tenfold
    And the provider replies "third reply"
    And the user steers "THIRD-ASK"
    And the session settles
    Then every request after request 3 mentions "FIRST-ASK" in its conversation
    # A runtime may try the compaction once more by another request: the pending input reaches the next turn.
    And the last request mentions "SECOND-ASK" in its conversation
    # checks: CMP-06
    And the session's compactions are:
      | status |
      | failed |

  @CMP-08 @id:cmp-compaction-8
  Scenario: [2] A repeated compaction updates the previous summary with the newer messages
    Given a session "s1"
    And the context budget is sized so that one long reply overflows it
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY-ONE: the task is to port the parser"
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY-TWO: the parser is ported"
    # A runtime that goes on after a compaction by its own continuation is answered too.
    And the provider replies "done" to every later turn
    And the user steers "FIRST-ASK: port the parser"
    And the session settles
    # checks: CMP-01
    And the session has 0 completed compactions
    And the user steers "two"
    And the session settles
    When the user steers "three"
    And the session settles
    # A runtime that does not compact before the turn breaks CMP-02, which shows nothing of what a summary keeps.
    Then request 2 asked for a summary rather than the turn "two", or nothing here is judged
    # What the turn after the compaction was sent with, a runtime that sent it while its summary was
    # still being written has nothing to show.
    And request 3 was sent once request 2 was answered, or nothing here is judged
    # checks: CMP-04
    And request 3 omits "FIRST-ASK" in its conversation
    # checks: CMP-08 CMP-06
    And request 4 mentions "SUMMARY-ONE: the task is to port the parser" in its conversation
    And request 4 omits "FIRST-ASK" in its conversation
    And request 5 mentions "SUMMARY-TWO: the parser is ported" in its conversation
    # Both compactions stay on record, the earlier one too: the durable ended events, not the updating.
    # checks: CMP-06
    And the session has at least 2 completed compactions

  @CMP-10 @id:cmp-compaction-9
  Scenario: [3] A context-overflow refusal before any output triggers one compaction and one rebuilt attempt
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: one"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    Then the provider received 4 requests
    And the session reports no failure
    # checks: CMP-10 CMP-06 CMP-09
    And request 4 mentions "SUMMARY: one" in its conversation
    # checks: CMP-10 CMP-09
    And request 4 ends with the pending input "two"

  @CMP-11 @id:cmp-compaction-10
  Scenario: [4] A second overflow after the compaction is final: no loop
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY: one"
    And the provider refuses the request as too long for its context window
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    # checks: CMP-10
    Then the provider received at least 4 requests
    # A refused rebuilt turn answered by another compaction or attempt breaks both: CMP-10 (d), CMP-11 (a).
    # checks: CMP-10 CMP-11
    And the provider received 4 requests
    # checks: CMP-11
    And the session reports the failure "context-overflow", saying the context overflowed

  @CMP-11 @id:cmp-compaction-11
  Scenario: [5] An overflow with nothing to compact is final at once
    Given a session "s1"
    And the provider refuses the request as too long for its context window
    When the user steers "one"
    And the session settles
    Then the provider received 1 request
    # checks: CMP-11
    And the session has 0 completed compactions
    # A runtime that did not take the refusal for an overflow (CMP-10's matter) shows nothing of how it ends one.
    # checks: CMP-11
    And the session reports the failure "context-overflow", or nothing here is judged
    And the session reports the failure "context-overflow", saying the context overflowed

  @CMP-08 @PRU-06 @profile:sol @id:cmp-compaction-12
  Scenario: [6] The first prompt's task stays visible to the model through two compactions
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider tells summary requests from turns
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY-ONE: the user asked to port the parser to Rust"
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY-TWO: still porting the parser to Rust, the lexer is done"
    And the provider replies "done" to every later turn
    And the user steers "TASK: port the parser to Rust"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user steers "three"
    And the session settles
    # checks: CMP-08
    Then the session has 2 completed compactions
    # checks: CMP-08
    And request 2 mentions "TASK: port the parser to Rust" in its conversation
    # checks: CMP-08
    And request 4 mentions "SUMMARY-ONE: the user asked to port the parser to Rust" in its conversation
    # checks: CMP-08 CMP-04
    And request 4 omits "TASK: port the parser to Rust" in its conversation
    # checks: PRU-06
    And the conversation of the last request starts with a message mentioning "SUMMARY-TWO: still porting the parser to Rust"
    # checks: PRU-06
    And the last request omits "SUMMARY-ONE" in its conversation

  @CMP-12 @id:cmp-model-window-1
  Scenario: [7] After a switch to a model with a smaller window, the next turn is weighed against it
    Given a session "s1"
    And the context budget is sized so that one long reply overflows it, for the model "kit-other" only
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider summarizes with "SUMMARY: a long answer"
    # A runtime that goes on after a compaction by its own continuation is answered too.
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    # A second turn after the long reply: what the runtime keeps verbatim leaves the long reply to fold.
    And the user steers "one more"
    And the session settles
    # checks: CMP-01
    And the session has 0 completed compactions
    When the session selects the model "kit-other"
    And the user steers "two"
    And the session settles
    # checks: CMP-12
    Then request 3 asked for a summary rather than the turn "two"
    # A compaction once the turn is over, with nothing older to fold, is CMP-03's.
    # checks: CMP-12
    And the session has at least 1 completed compaction
    # checks: CMP-12 EPO-08
    And request 4 uses the model "kit-other"
    # A runtime that sent the turn while its summary was still being written has no summary to show in it.
    # checks: CMP-06 CMP-09
    And request 4 was sent once request 3 was answered, or nothing here is judged
    # checks: CMP-06 CMP-09
    And request 4 mentions "SUMMARY: a long answer" in its conversation

  @CMP-12 @id:cmp-model-window-2
  Scenario: [10] After a switch to a model with a larger window, the next turn is weighed against it, and back again
    Given a session "s1"
    And the context budget is sized so that one long reply overflows it, except for the model "kit-other"
    And the provider replies with a long reply
    And the provider replies "done on the larger model"
    And the provider summarizes with "SUMMARY: a long answer"
    # A runtime that goes on after a compaction by its own continuation is answered too.
    And the provider replies "done on the smaller model" to every later turn
    And the user steers "one"
    And the session settles
    # checks: CMP-01
    And the session has 0 completed compactions
    When the session selects the model "kit-other"
    And the user steers "two"
    And the session settles
    # checks: CMP-12
    Then the session has 0 completed compactions
    # checks: CMP-12 EPO-08
    And request 2 uses the model "kit-other"
    When the session selects the model "kit-model"
    And the user steers "three"
    And the session settles
    # A compaction once the turn is over, with nothing older to fold, is CMP-03's.
    # checks: CMP-12
    Then the session has at least 1 completed compaction
    # checks: CMP-12 EPO-08
    And request 4 uses the model "kit-model"
    # A runtime that sent the turn while its summary was still being written has no summary to show in it.
    # checks: CMP-06 CMP-09
    And request 4 was sent once request 3 was answered, or nothing here is judged
    # checks: CMP-06 CMP-09
    And request 4 mentions "SUMMARY: a long answer" in its conversation

  @CMP-07 @id:cmp-compaction-cut-1
  Scenario: [8] A compaction whose summary stream is cut midway leaves the previous history boundary active
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider replies with the recording "cut-midway"
    And the provider replies to "SECOND-ASK" with "second reply"
    And the user steers "FIRST-ASK"
    And the session settles
    # A second turn within budget: what the runtime keeps verbatim of its newest turn leaves the long reply to fold.
    And the user steers "MIDDLE-ASK"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "SECOND-ASK"
    And the session settles
    Then request 3 asked for a summary rather than the turn "SECOND-ASK", or nothing here is judged
    And after the failed compaction in request 3, the pending turn "SECOND-ASK" stopped or ran once
    When the context window grows tenfold
    And the provider replies "third reply"
    And the user steers "THIRD-ASK"
    And the session settles
    # checks: CMP-07 CMP-06
    Then every request after request 3 omits "The answer is" in its conversation
    And every request after request 3 mentions "FIRST-ASK" in its conversation
    # checks: CMP-06
    And the session's compactions are:
      | status |
      | failed |

  @CMP-06 @needs:restart @id:cmp-compaction-started-1
  Scenario: [9s] A compaction cut off by the end of its process while its summary is on its way has already stored its start
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider holds its reply "SUMMARY: never used" until "summary" is released
    And the user steers "FIRST-ASK"
    # checks: CMP-01
    And the session settles
    # A second turn within budget: what the runtime keeps verbatim of its newest turn leaves the long reply to fold.
    And the user steers "MIDDLE-ASK"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    And the user steers "SECOND-ASK"
    And the provider has received 3 requests
    # checks: INB-06
    When the runtime process restarts
    Then request 3 asked for a summary rather than the turn "SECOND-ASK", or nothing here is judged
    And the session has 1 compaction that did not complete

  @CMP-07 @id:cmp-compaction-interrupted-1
  Scenario: [9] A compaction interrupted while its summary is on its way leaves the previous history boundary active
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider holds its reply "SUMMARY: never used" until "summary" is released
    And the user steers "FIRST-ASK"
    # checks: CMP-01
    And the session settles
    # A second turn within budget: what the runtime keeps verbatim of its newest turn leaves the long reply to fold.
    And the user steers "MIDDLE-ASK"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    And the user steers "SECOND-ASK"
    And the provider has received 3 requests
    When the session is interrupted
    And the held reply "summary" is released
    And the session settles
    Then request 3 asked for a summary rather than the turn "SECOND-ASK", or nothing here is judged
    When the context window grows tenfold
    And the provider replies "third reply"
    And the user steers "THIRD-ASK"
    And the session settles
    # checks: CMP-07 CMP-06
    Then every request after request 3 omits "SUMMARY: never used" in its conversation
    And every request after request 3 mentions "FIRST-ASK" in its conversation
    # checks: CMP-06
    And the session's compactions are:
      | status |
      | failed |

  @CMP-08 @id:cmp-compaction-8-requested @needs:manual-compaction
  Scenario: [11] A second requested compaction updates the first summary
    Given a session "s1"
    And the provider replies "FIRST-REPLY"
    And the provider replies "SECOND-REPLY"
    And the provider summarizes with "SUMMARY-ONE: the task is to port the parser"
    And the provider replies "THIRD-REPLY"
    And the provider summarizes with "SUMMARY-TWO: the parser is ported"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user asks for a compaction
    And the session settles
    And the user steers "three"
    And the session settles
    When the user asks for a compaction
    And the session settles
    And the user steers "four"
    And the session settles
    Then the provider received 6 requests
    And request 5 mentions "SUMMARY-ONE: the task is to port the parser" in its conversation
    # checks: CMP-08
    And the session has 2 completed compactions

  @CMP-11 @dialect:openai-responses @id:cmp-compaction-overflow-midway-1
  Scenario: [12] An overflow refusal after part of the answer streamed is final: nothing is compacted, the turn is not rebuilt
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies with the recording "overflow-midway"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    When the user steers "two"
    # checks: CMP-11
    And the session settles
    Then the provider received 2 requests
    # checks: CMP-11
    And the session has 0 completed compactions

  @CMP-11 @dialect:openai-responses @id:cmp-compaction-overflow-after-tools-1
  Scenario: [13] An overflow refusal after a tool call streamed is final: nothing is compacted, the turn is neither rebuilt nor sent again
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies with the recording "tool-call-then-overflow"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    When the user steers "two"
    # checks: CMP-11
    And the session settles
    Then the provider received 2 requests
    # checks: CMP-11
    And the session has 0 completed compactions

  @CMP-08 @id:cmp-compaction-8-since @needs:manual-compaction
  Scenario: [14] A second summary is asked with the messages compacted since the first one
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies "FIRST-REPLY"
    And the provider summarizes with "SUMMARY-ONE: the task is to port the parser"
    And the provider replies "SINCE-REPLY: the lexer is ported"
    And the provider replies "LAST-REPLY: the long notes are read"
    And the provider summarizes with "SUMMARY-TWO: the lexer is ported, the parser is next"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the user asks for a compaction
    And the session settles
    And the user steers "SINCE-ASK: port the lexer"
    And the session settles
    # A runtime keeps its recent context verbatim: a long prompt after them leaves them older than it,
    # and starts a turn of its own, where a runtime cuts without splitting a turn.
    And the user steers prose as long as the long reply
    And the session settles
    When the user asks for a compaction
    And the session settles
    And the user steers "three"
    And the session settles
    Then the provider received 6 requests
    And the session has 2 completed compactions, or nothing here is judged
    # checks: CMP-08
    And request 5 mentions "SINCE-ASK: port the lexer" in its conversation, or request 6 keeps it verbatim
    # checks: CMP-08
    And request 5 mentions "SINCE-REPLY: the lexer is ported" in its conversation, or request 6 keeps it verbatim
    # checks: CMP-08
    And request 5 mentions "LAST-REPLY: the long notes are read" in its conversation, unless request 6 keeps it verbatim
    And request 6 mentions "SUMMARY-TWO: the lexer is ported, the parser is next" in its conversation
