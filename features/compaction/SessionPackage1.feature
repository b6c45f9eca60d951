@area:compaction
Feature: SessionPackage1 - Compaction and messages in the Go session package
  A runtime of profile sol compacts as the Go session package does: a summary asked for with the
  compaction prompt, shown to the model as the answer to "What did we do so far?", followed by a
  synthetic continue message; and it converts its messages for the provider without session-level
  metadata, one provider message per tool result.

  @SCP-06 @profile:sol @dialect:openai-chat @id:scp-tool-results-1 @needs:kit-tools
  Scenario: [1] Two results of one assistant message reach the provider as two tool messages
    Given a session "s1"
    And the provider calls the tools:
      | id     | name | input             |
      | call_a | echo | {"text": "alpha"} |
      | call_b | echo | {"text": "beta"}  |
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 2 has the messages:
      | role      | content          |
      | user      | start            |
      | assistant | calls echo, echo |
      | tool      | alpha            |
      | tool      | beta             |
    And request 2 gives call "call_a" an output mentioning "alpha"
    And request 2 gives call "call_b" an output mentioning "beta"

  @SCP-05 @profile:sol @dialect:openai-chat @id:scp-attachment-source-1
  Scenario: [2] The source of an image stays in the session, in the chat dialect
    Given a session "s1"
    And the provider replies "seen"
    When the user steers "look" with an image from "s3://kit-bucket/private-key-7f3a"
    And the session settles
    Then request 1 carries 1 image
    And request 1 does not contain "private-key-7f3a" anywhere
    And the history keeps the source "s3://kit-bucket/private-key-7f3a" with the user message "look"

  @SCP-05 @profile:sol @dialect:anthropic-messages @id:scp-attachment-source-2
  Scenario: [3] The source of an image stays in the session, in the messages dialect
    Given a session "s1"
    And the provider replies "seen"
    When the user steers "look" with an image from "s3://kit-bucket/private-key-7f3a"
    And the session settles
    Then request 1 carries 1 image
    And request 1 does not contain "private-key-7f3a" anywhere
    And the history keeps the source "s3://kit-bucket/private-key-7f3a" with the user message "look"

  @SCP-05 @profile:sol @id:scp-attachment-source-file-1
  Scenario: [3b] The source of a file attachment stays in the session: it is never sent to the provider
    Given a session "s1"
    And the provider replies "read"
    When the user steers "summarize" with the file "notes.pdf" from "s3://kit-bucket/private-key-9c2e"
    And the session settles
    Then request 1 carries 1 file other than images
    And request 1 does not contain "private-key-9c2e" anywhere
    And the history keeps the source "s3://kit-bucket/private-key-9c2e" with the user message "summarize"

  @SCP-04 @profile:sol @id:scp-config-1
  Scenario: [4] Automatic compaction is on when the configuration does not mention it
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    # checks: SCP-04
    Then the session has 1 completed compaction
    And the last request mentions "SUMMARY: a long answer" in its conversation

  @SCP-04 @profile:sol @id:scp-config-2
  Scenario: [5] With automatic compaction off, an oversized request goes out uncompacted
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000, with auto off
    And the provider replies with 160000 characters of prose
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    # checks: SCP-04
    And the session settles
    Then the provider received 2 requests
    # checks: SCP-04
    And the session has 0 completed compactions
    And request 2 has 1 user message "one"

  @SCP-04 @profile:sol @id:scp-config-3 @needs:kit-tools
  Scenario: [6] With pruning off, old tool outputs reach the model whole
    Given the tool output limit is 10 lines or 1000000 bytes
    And a session "s1"
    And the context window is 400000 tokens with an output allowance of 4000 and a compaction buffer of 2000, with prune off
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
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
    And request 6 reads 100000 characters of output for call "a"
    And request 6 reads 100000 characters of output for call "b"
    And the history keeps 100000 characters of output for call "a", unpruned

  @SCP-04 @profile:sol @id:scp-config-4 @needs:kit-tools
  Scenario: [7] Pruning is on when the configuration does not mention it
    Given the tool output limit is 10 lines or 1000000 bytes
    And a session "s1"
    And the context window is 400000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    Then the history keeps 100000 characters of output for call "a", pruned

  @SCP-03 @profile:sol @id:scp-trigger-1
  Scenario: [8] The model reads a compaction as the answer to "What did we do so far?"
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    Then the last request begins with the question "What did we do so far?" answered by "SUMMARY: a long answer"
    # checks: SCP-03
    And the last request ends with:
      | role | content |
      | user | two     |
    # checks: SCP-03 CMP-04
    And the last request has no user message "one"

  @SCP-01 @profile:sol @id:scp-continue-1 @needs:kit-tools
  Scenario: [9] A compaction in the middle of the agent loop is followed by a synthetic continue message
    Given the tool output limit is 10 lines or 1000000 bytes
    And a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider tells summary requests from turns
    And the provider calls produce "a" with one line of 160000 "x"
    And the provider summarizes with "SUMMARY: produced a long line"
    And the provider replies "done" to every later turn
    When the user steers "one"
    And the session settles
    Then the session has 1 completed compaction, or nothing here is judged
    # checks: SCP-01 SCP-03
    And the last request begins with the question "What did we do so far?" answered by "SUMMARY: produced a long line"
    And the last request ends with the user message reading the declared text "continuation.continue"
    And the newest user message in the history is a hidden continuation reading the declared text "continuation.continue"
    And the history has 1 user message "one"

  @SCP-02 @profile:sol @id:scp-request-1
  Scenario Outline: [10] A compaction request sends the conversation, then the compaction prompt, under the compaction system prompt (<case>)
    Given a session "s1"
    And the context window is <window> tokens with an output allowance of <allowance> and a compaction buffer of 2000
    And the provider tells summary requests from turns
    And the provider replies with <prose> characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    And the session selects the model "kit-other"
    When the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    Then the baseline of the summary request is the declared text "compaction.system-prompt"
    And the summary request uses the model "kit-other"
    And the summary request has the messages:
      | role      | content |
      | user      | one     |
      | assistant | *       |
      | user      | *       |
    And the summary request ends with the user message reading the declared text "compaction.prompt"
    And the summary request limits the output to <limit> tokens
    And the last request uses the model "kit-other"

    Examples:
      | case                   | window | allowance | prose  | limit |
      | the allowance as given | 40000  | 4000      | 160000 | 4000  |
      | capped at 32000        | 60000  | 50000     | 90000  | 32000 |

  @SCP-02 @profile:sol @id:scp-request-options-1
  Scenario: [10o] A compaction request carries the session's provider options
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider tells summary requests from turns
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    When the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    # checks: SCP-02
    Then the summary request carries the provider options of request 1, or nothing here is judged

  @SCP-02 @profile:sol @id:scp-request-agent-model-1
  Scenario: [10b] A compaction request uses the compaction agent's model where the agent names one, and the turns go on with the session's
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000, the compaction agent's model being "kit-model-2"
    And the provider tells summary requests from turns
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    And the session selects the model "kit-other"
    When the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    Then the summary request uses the model "kit-model-2"
    And the last request uses the model "kit-other"
    And request 1 uses the model "kit-other"

  @SCP-07 @profile:sol @id:scp-store-crash-1 @needs:fault-injection @needs:restart
  Scenario: [11a] A compaction cut short while it is stored is never loaded: the next load starts before it, and a later compaction is stored whole
    Given a session "s1"
    And the context budget is sized so that one long reply overflows it
    And the provider tells summary requests from turns
    And the provider replies with a long reply
    And the provider summarizes with "SUMMARY: after the crash"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    And the runtime is to crash right after it stores the start of a compaction
    When the user steers "two", which may crash the runtime
    And the crashed runtime starts again
    # checks: SCP-07
    Then the session has 0 completed compactions
    And the history still holds the long reply
    When the context budget is sized so that one long reply overflows it
    And the session is run
    And the session settles
    # checks: SCP-07
    Then the session has 1 completed compaction
    And the last request begins with the question "What did we do so far?" answered by "SUMMARY: after the crash"

  @SCP-07 @profile:sol @id:scp-store-1 @needs:restart
  Scenario: [11] A stored compaction holds across a restart: the next load starts at the summary, the folded messages stay, the tokens freed are recorded
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider tells summary requests from turns
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    # checks: INB-06
    When the runtime process restarts
    And the user steers "three"
    And the session settles
    # The compaction may follow the step that overflowed, with its continuation, or precede "two".
    Then the last request ends with the pending input "three"
    # checks: SCP-07 SCP-03
    And the last request begins with the question "What did we do so far?" answered by "SUMMARY: a long answer"
    # checks: SCP-07 CMP-04
    And the last request has no user message "one"
    And the last request is shorter than 40000 characters
    # checks: SCP-07 CMP-04
    And the history still holds 160000 characters of prose
    And the history has 1 user message "one"
    And compaction 1 freed between 38000 and 40100 tokens

  @SCP-07 @profile:sol @id:scp-store-2
  Scenario: [12] A second compaction records the tokens it freed itself, not those the first one folded
    Given a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider tells summary requests from turns
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies with 160000 characters of prose
    And the provider summarizes with "SUMMARY: two long answers"
    And the provider replies "done" to every later turn
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user steers "three"
    And the session settles
    Then the session has 2 completed compactions, or nothing here is judged
    And compaction 2 freed between 38000 and 40100 tokens

  # The summary weighs more than the short conversation it folds: what the compaction freed is
  # nothing, or less, and is still recorded (a runtime may count it as zero).
  @SCP-07 @profile:sol @id:scp-store-3 @needs:manual-compaction
  Scenario: [14] A compaction that freed no tokens still records what it freed
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider summarizes with "SUMMARY: the user said one, the assistant answered first, and nothing else happened yet"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user asks for a compaction
    And the user steers "three"
    And the session settles
    Then the session has 1 completed compaction, or nothing here is judged
    And compaction 1 freed between -1000 and 0 tokens


  # A runtime that compacts before a turn over its estimate, and one that compacts once a response
  # reported usage over the window (PRU-02), both compact twice here: a short call follows each long
  # output, so each long output is weighed by a response before the next one comes.
  @SCP-01 @profile:sol @id:scp-continue-2 @needs:kit-tools
  Scenario: [13] Every automatic compaction in the agent loop is followed by a continue message, the second as the first
    Given the tool output limit is 10 lines or 1000000 bytes
    And a session "s1"
    And the context window is 40000 tokens with an output allowance of 4000 and a compaction buffer of 2000
    And the provider tells summary requests from turns
    And the provider calls produce "a" with one line of 160000 "x"
    And the provider summarizes with "SUMMARY: produced a long line"
    And the provider calls produce "after-a" with 3 numbered lines
    And the provider calls produce "b" with one line of 160000 "y"
    And the provider summarizes with "SUMMARY: produced two long lines"
    And the provider calls produce "after-b" with 3 numbered lines
    And the provider replies "done" to every later turn
    When the user steers "one"
    And the session settles
    Then the session has 2 completed compactions, or nothing here is judged
    # checks: SCP-01 SCP-03
    And the last request begins with the question "What did we do so far?" answered by "SUMMARY: produced two long lines"
    And the history has 2 hidden continuations reading the declared text "continuation.continue"
    And the history has 1 user message "one"
