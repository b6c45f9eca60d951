@area:compaction
Feature: Compaction1 - Automatic compaction
  Before each provider turn the runtime weighs the whole request against the context window
  minus a reserve. Over budget, it folds older complete turns into one hidden checkpoint (a
  summary the model writes, and bounded recent context), then runs the pending turn. Replies
  of many characters of plain prose make a request too large under any token estimate.

  @CMP-01 @id:cmp-compaction-1
  Scenario Outline: [1] The reserve is the greater of the output allowance and the compaction buffer (<case>)
    Given a session "s1"
    And the context window is <window> tokens with an output allowance of <allowance> and a compaction buffer of <buffer>
    And the provider replies with prose that brings the conversation to <tokens> tokens
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    Then the session has <compactions> completed compactions

    # The conversation is sized whatever the runtime's own instructions and tools weigh, with a
    # margin for how each runtime estimates: within the budget the rule leaves, or over it; the
    # equal reserve sits between the budget and the one a reserve added up would leave.
    Examples:
      | case                         | window | allowance | buffer | tokens | compactions |
      | both small                   | 40000  | 2000      | 2000   | 34000  | 0           |
      | allowance is greater         | 40000  | 12000     | 2000   | 37000  | 1           |
      | buffer is greater            | 40000  | 2000      | 12000  | 37000  | 1           |
      | equal, not added up          | 40000  | 5000      | 5000   | 32500  | 0           |
      | under a tenth of the window  | 200000 | 4000      | 4000   | 190000 | 0           |

  @CMP-02 @CMP-09 @id:cmp-compaction-2
  Scenario: [2] Over budget with older complete turns, the runtime compacts, then runs the pending turn
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    # What a runtime that compacts again after the turn asks (CMP-03's matter, not this rule's) finds an answer.
    And the provider replies "done"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    # A second turn within budget: a runtime that weighs the usage its provider reported for the last
    # request, rather than the request it is about to send, sees the long reply there too.
    And the user steers "one more"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "two"
    And the session settles
    # checks: CMP-02
    Then request 3 asked for a summary rather than the turn "two"
    # A turn sent before its summary was done is CMP-02's to answer for, not what a compaction keeps.
    # checks: CMP-02
    And request 4 mentions "SUMMARY: a long answer" in its conversation
    # Where the pending input goes after a compaction, a runtime that did not compact has nothing to show.
    # checks: CMP-09
    And request 3 asked for a summary rather than the turn "two", or nothing here is judged
    # checks: CMP-09
    And the provider received at least 4 requests
    # checks: CMP-09
    And request 4 ends with the pending input "two"

  @CMP-02 @id:cmp-compaction-2-one-older
  Scenario: [2b] One older complete turn is enough to fold: over budget, the runtime compacts it before the pending turn
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    # What a runtime that compacts again after the turn asks (CMP-03's matter, not this rule's) finds an answer.
    And the provider replies "done"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "two"
    And the session settles
    # checks: CMP-02
    Then request 2 asked for a summary rather than the turn "two"
    # checks: CMP-02
    And request 3 mentions "SUMMARY: a long answer" in its conversation

  @CMP-03 @id:cmp-compaction-3
  Scenario: [3] Over budget with no older complete turn, nothing is compacted
    Given a session "s1"
    And the context budget is sized so that one long reply overflows it
    And the provider replies "read it all"
    # The two turns below and the summaries a compaction asks for, in whatever order they come; a
    # runtime that compacts again and again runs out of answers rather than on forever.
    And the provider replies "done"
    And the provider replies "done"
    And the provider replies "done"
    And the provider replies "done"
    And the provider replies "done"
    When the user steers prose as long as the long reply
    And the session settles
    # The seeds say nothing is compacted; whether the turn is sent anyway or refused they leave open.
    Then the provider received at most 1 request
    # checks: CMP-03
    And the session has 0 completed compactions
    # A runtime that never compacts passes the check above by compacting nothing: with two older
    # complete turns, the long one among them, the same budget brings a compaction, or the check
    # showed nothing.
    When the user steers "one more"
    And the session settles
    And the user steers "two"
    And the session settles
    Then the session has at least 1 completed compaction, or nothing here is judged

  @CMP-04 @id:cmp-compaction-4
  Scenario: [4] The transcript stays durable; the model sees one hidden checkpoint with bounded recent context
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    # A second turn within budget: a runtime that weighs the usage reported for its last request sees the long reply too.
    And the user steers "one more"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "two"
    And the session settles
    # A runtime that does not compact before the turn breaks CMP-02, which shows nothing of the checkpoint.
    Then request 3 asked for a summary rather than the turn "two", or nothing here is judged
    And the history still holds the long reply
    And the history holds one hidden compaction checkpoint with the summary "SUMMARY: a long answer"
    And request 4 is shorter than request 2 by at least half the long reply
    # The newest folded answer, "noted", reaches the model only inside the checkpoint; a turn sent
    # before its summary was done (CMP-02's matter) shows nothing of the compaction it did not wait for.
    And request 4 was sent once request 3 was answered, or nothing here is judged
    And request 4 carries no assistant or tool message

  @CMP-05 @id:cmp-compaction-5
  Scenario: [5] No provider-native assistant, reasoning or tool message crosses the compaction boundary, a failed call's neither
    Given the file "notes.txt" in the workspace "s1" says "noted"
    And a session "s1"
    And the context budget holds a long reply
    And the provider calls the tools:
      | id       | name | input                   |
      | call_ok  | read | {"path": "notes.txt"}   |
      | call_bad | read | {"path": "missing.txt"} |
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider summarizes with "SUMMARY: echoed, then a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    # A second turn within budget: a runtime that weighs the usage reported for its last request sees the long reply too.
    And the user steers "one more"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "two"
    And the session settles
    Then the last request ends with the pending input "two", or nothing here is judged
    And the last request mentions "SUMMARY: echoed, then a long answer" in its conversation, or nothing here is judged
    And the last request carries no assistant or tool message

  @CMP-05 @dialect:anthropic-messages @dialect:openai-responses @dialect:gemini @id:cmp-compaction-reasoning-1
  Scenario: [5b] Signed reasoning the same model reads before the compaction reaches it no more after it, the newest folded answer's neither
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies "short" after reasoning "weighing the first" signed "sig-kit-1"
    And the provider replies with a long reply after reasoning "weighing the long one" signed "sig-kit-2"
    And the provider replies "noted" after reasoning "weighing the note" signed "sig-kit-3"
    And the provider summarizes with "SUMMARY: a short answer, then a long one"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    # A turn within budget after the long reply: a runtime that weighs the usage reported for its last request sees it too.
    And the user steers "two more"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the user steers "three"
    And the session settles
    # checks: AGT-06
    Then request 2 replays the reasoning "weighing the first" signed "sig-kit-1"
    And the last request ends with the pending input "three", or nothing here is judged
    And the last request mentions "SUMMARY: a short answer, then a long one" in its conversation, or nothing here is judged
    And the last request carries no provider-native reasoning
    And the last request carries no assistant or tool message

  @CMP-06 @id:cmp-compaction-6
  Scenario: [6] Only the finished summary is durable: its streamed fragments are not
    Given a session "s1"
    And a session "s2"
    And the context budget is sized so that one long reply overflows it
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY: the same for both, déjà ✓" in 1 chunk
    And the provider replies "done"
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY: the same for both, déjà ✓" in 12 chunks
    And the provider replies "done"
    When the user steers "FIRST-ASK" to session "s1"
    And session "s1" settles
    And the user steers "SECOND-ASK" to session "s1"
    And session "s1" settles
    And the user steers "FIRST-ASK" to session "s2"
    And session "s2" settles
    And the user steers "SECOND-ASK" to session "s2"
    And session "s2" settles
    Then request 2 asked for a summary rather than the turn "SECOND-ASK", or nothing here is judged
    And request 5 asked for a summary rather than the turn "SECOND-ASK", or nothing here is judged
    # A turn sent before its summary was done (CMP-02's matter) shows nothing of the compaction it did not wait for.
    And request 3 mentions "SUMMARY: the same for both" in its conversation, or nothing here is judged
    And request 6 mentions "SUMMARY: the same for both" in its conversation, or nothing here is judged
    And sessions "s1" and "s2" have the same number of durable events
    And request 3 mentions "SUMMARY: the same for both, déjà ✓" in its conversation
    And request 6 mentions "SUMMARY: the same for both, déjà ✓" in its conversation
    And the session's compactions are:
      | status    | summary                            |
      | completed | SUMMARY: the same for both, déjà ✓ |
    # checks: CMP-04
    And request 3 omits "FIRST-ASK" in its conversation

  @CMP-04 @id:cmp-compaction-recent-1 @needs:manual-compaction
  Scenario: [7] The recent context holds the newest compacted messages, not the oldest, a failed tool call's too
    Given a session "s1"
    And the provider replies with a long reply
    And the provider calls read "missing.txt"
    And the provider replies "LATEST-REPLY"
    And the provider summarizes with "SUMMARY: two turns"
    And the provider replies "done"
    And the user steers "FIRST-ASK"
    And the session settles
    And the user steers "SECOND-ASK"
    And the session settles
    When the user asks for a compaction
    And the user steers "three"
    And the session settles
    Then the provider received 5 requests
    And the session has 1 completed compaction, or nothing here is judged
    And request 5 mentions "LATEST-REPLY" in its conversation
    # How far back the recent context reaches is the runtime's: where it reaches the prompt before the failed call, it keeps the call's output.
    And request 5 mentions the output of call "call_read" in its conversation where it mentions "SECOND-ASK"
    And request 5 omits "FIRST-ASK" in its conversation

  @CMP-06 @id:cmp-compaction-recent-restart-1 @needs:restart
  Scenario: [7b] The durable end record keeps the recent context: after a restart the model still reads the newest compacted messages
    Given a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "LATEST-REPLY"
    And the provider summarizes with "SUMMARY: two turns"
    And the provider replies "done"
    And the provider replies "after the restart"
    And the user steers "FIRST-ASK"
    And the session settles
    And the user steers "SECOND-ASK"
    And the session settles
    When the context budget is sized so that one long reply overflows it
    And the user steers "three"
    And the session settles
    # checks: INB-06
    And the runtime process restarts
    And the user steers "four"
    And the session settles
    # A runtime that sent the turn "three" without compacting first has no compaction to keep.
    Then request 3 asked for a summary rather than the turn "three", or nothing here is judged
    And the provider received 5 requests
    And request 5 mentions "SUMMARY: two turns" in its conversation
    # What the pending turn was sent with after the compaction, a runtime that sent it while its summary
    # was still being written has nothing to show.
    # checks: CMP-09
    And request 4 was sent once request 3 was answered, or nothing here is judged
    # checks: CMP-09
    And request 4 ends with the pending input "three"
    # checks: CMP-09
    And request 4 mentions "SUMMARY: two turns" in its conversation
    # checks: CMP-04
    And request 4 mentions "LATEST-REPLY" in its conversation
    # What a restart keeps of the recent context, a runtime that kept none of it after the compaction has nothing to show.
    And request 4 mentions "LATEST-REPLY" in its conversation, or nothing here is judged
    And request 5 mentions "LATEST-REPLY" in its conversation

  @CMP-01 @id:cmp-compaction-tools-1
  Scenario: [8] The estimate counts the tool definitions the request advertises
    Given a session "s1"
    And the provider replies with a long reply
    And the provider replies "second"
    And the provider tells summary requests from turns
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the context budget is sized to hold request 2 only without its tool definitions
    And the user steers "three"
    And the session settles
    # The estimate counted the tool definitions: the turn "three" brought a compaction.
    Then the session has at least 1 completed compaction
    # checks: CMP-02
    And request 3 asked for a summary rather than the turn "three"
    # A second compaction, with nothing older to fold, is what the summary kept that speaks.
    # checks: CMP-03 CMP-04
    And the session has 1 completed compaction
    # checks: CMP-03 CMP-04
    And the provider received 4 requests
    # What the pending turn was sent with after the compaction, a runtime that sent it before compacting,
    # or while its summary was still being written, has nothing to show.
    # checks: CMP-09
    And request 3 asked for a summary rather than the turn "three", or nothing here is judged
    # checks: CMP-09
    And request 4 was sent once request 3 was answered, or nothing here is judged
    # checks: CMP-09
    And request 4 ends with the pending input "three"

  # A runtime that weighs its own tools once and forgets those a location adds (an MCP server's,
  # say) under-estimates exactly when a location brings many.
  @CMP-01 @needs:tool-contributions @id:cmp-compaction-tools-2
  Scenario: [9] The estimate counts the tools a location contributed
    Given a session "s1"
    And the location of "s1" has 40 contributed tools under "kit/many"
    And the provider replies with a long reply
    And the provider replies "second"
    And the provider tells summary requests from turns
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the context budget is sized to hold request 2 only without its contributed tool definitions
    And the user steers "three"
    And the session settles
    # The estimate counted the contributed tool definitions: the turn "three" brought a compaction.
    Then the session has at least 1 completed compaction
    # checks: CMP-02
    And request 3 asked for a summary rather than the turn "three"
    # A second compaction, with nothing older to fold, is what the summary kept that speaks.
    # checks: CMP-03 CMP-04
    And the session has 1 completed compaction
    # checks: CMP-03 CMP-04
    And the provider received 4 requests
    And request 4 advertises the tool "kit_contributed_40"
    # checks: CMP-09
    And request 3 asked for a summary rather than the turn "three", or nothing here is judged
    # checks: CMP-09
    And request 4 was sent once request 3 was answered, or nothing here is judged
    # checks: CMP-09
    And request 4 ends with the pending input "three"

  # A runtime that weighs the messages it stored rather than the request it sends compacts again
  # at once: the folded long reply is in no request after the compaction.
  @CMP-01 @id:cmp-compaction-after-1
  Scenario: [10] After a compaction the estimate weighs the request as it now is, not the folded history
    Given a session "s1"
    And the context budget is sized so that one long reply overflows it
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    # Whether the runtime compacts here is CMP-01's or CMP-02's, as the runtime's estimate or what it
    # folds decides: a black box shows which in their own scenarios.
    And the session has at least 1 completed compaction, or nothing here is judged
    And the request of the turn "two" is within the budget, or nothing here is judged
    When the user steers "three"
    And the session settles
    Then the turn "three" went out alone, with no compaction since they were counted
    And the last request ends with the pending input "three"

  @CMP-01 @id:cmp-compaction-tool-results-1 @needs:kit-tools
  Scenario: [11] The estimate counts the tool results the history carries
    Given a session "s1"
    And the provider replies with a long reply
    And the provider calls produce "notes" with 1800 numbered lines
    And the provider replies "second"
    And the provider summarizes with "SUMMARY: a long answer, then 1800 lines were produced"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the context budget is sized to hold request 3 only without its tool results
    And the user steers "three"
    And the session settles
    # The estimate counted the tool results: the turn "three" brought a compaction.
    Then the session has 1 completed compaction
    # checks: CMP-02
    And request 4 asked for a summary rather than the turn "three"
    # What the pending turn was sent with after the compaction, a runtime that sent it before compacting,
    # or while its summary was still being written, has nothing to show.
    # checks: CMP-09
    And request 4 asked for a summary rather than the turn "three", or nothing here is judged
    # checks: CMP-09
    And request 5 was sent once request 4 was answered, or nothing here is judged
    # checks: CMP-09
    And request 5 ends with the pending input "three"

  @CMP-01 @id:cmp-compaction-mid-drain-1 @needs:kit-tools
  Scenario: [11b] The estimate is made before every provider turn of a drain: a tool result that brings the next turn over budget is compacted before it
    Given a session "s1"
    # The output that brings the turn over budget reaches the model whole, whatever the runtime's own bound.
    And the tool output limit is 100000 lines or 10000000 bytes
    And the provider calls produce "notes" with 1800 numbered lines
    And the provider replies "first"
    And the provider calls produce "more" with 7200 numbered lines
    And the provider summarizes with "SUMMARY: 1800 lines, a short answer, then 7200 lines"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the context budget is sized to hold request 2 twice
    And the user steers "two"
    And the session settles
    Then request 3 ends with the pending input "two"
    And the provider received 5 requests
    And request 5 mentions "SUMMARY: 1800 lines, a short answer, then 7200 lines" in its conversation
    # checks: CMP-02
    And the session has 1 completed compaction
