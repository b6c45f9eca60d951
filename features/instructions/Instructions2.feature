@area:instructions
Feature: Instructions2 - Instruction files as the changing context
  The global and project AGENTS.md files are Context Sources every coding runtime has, so the
  rules on sources, epochs and system messages are checked here by editing them. Checks are by
  meaning: where a file's text reaches the model, and how often, never the runtime's wording.

  @EPO-01 @id:ins-files-1
  Scenario: [1] The first provider turn carries the instruction files in its baseline and nothing after the prompt
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    # checks: EPO-01 INS-01
    Then the system field of request 1 contains the instructions in an order the seeds allow:
      | global  | GLOBAL: be brief  |
      | project | PROJECT: use tabs |
    And request 1 tells the model nothing after "hello"

  @CTX-04 @id:ins-files-2
  Scenario: [2] Files rewritten with the same text tell the model nothing new
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two"
    And request 2 tells the model "PROJECT: use tabs" once
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "three"
    And the session settles
    Then request 3 tells the model "PROJECT: use spaces" beside "three", or nothing above was judged
    When the user steers "four"
    And the session settles
    Then request 4 tells the model nothing beside "four"

  @CTX-04 @needs:restart @id:ins-files-2-restart
  Scenario: [2b] Files rewritten with the same text while the runtime was down tell the model nothing new
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two"
    And request 2 tells the model "PROJECT: use tabs" once
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    Then request 3 tells the model "PROJECT: use spaces" beside "three", or nothing above was judged

  @CTX-05 @MCS-01 @EPO-03 @EPO-04 @id:ins-files-3
  Scenario: [3] A changed file reaches the model after the promoted prompt with its new text only
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "PROJECT: use spaces"
    # EPO-03 reads the order the runtime kept, MCS-01 the order it sent.
    # checks: EPO-03
    And the history holds the user message "two" before the system message telling "PROJECT: use spaces"
    # checks: MCS-01
    And request 2 tells the model "PROJECT: use spaces" after "two", unless it tells changes only in its baseline
    # checks: CTX-05
    And request 2 does not tell the model "PROJECT: use tabs" beside "two"
    # checks: EPO-04
    And the baselines of requests 1 and 2 are byte for byte the same

  @CTX-05 @MCS-01 @EPO-03 @EPO-04 @needs:restart @id:ins-files-3-restart
  Scenario: [3c] A file changed while the runtime was down reaches the model after the promoted prompt with its new text only
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    # checks: CTX-05
    Then request 2 tells the model "PROJECT: use spaces" beside "two", or nothing here is judged
    # EPO-03 reads the order the runtime kept, MCS-01 the order it sent.
    # checks: EPO-03
    And the history holds the user message "two" before the system message telling "PROJECT: use spaces"
    # checks: MCS-01
    And request 2 tells the model "PROJECT: use spaces" after "two", unless it tells changes only in its baseline
    # checks: CTX-05
    And request 2 does not tell the model "PROJECT: use tabs" beside "two"
    # checks: EPO-04
    And the baselines of requests 1 and 2 are byte for byte the same

  @MCS-03 @needs:restart @id:ins-files-restart-1
  Scenario: [3b] A changed file announced to a turn the runtime dies during is announced once, and its snapshot kept
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider holds its reply "second" until "reply" is released
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the provider has received 2 requests
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "PROJECT: use spaces"
    # checks: MCS-01
    And request 2 tells the model "PROJECT: use spaces" after "two", unless it tells changes only in its baseline
    And request 3 tells the model "PROJECT: use spaces" once

  @MCS-03 @needs:restart @id:ins-files-restart-1-global
  Scenario: [3bg] A changed global file announced to a turn the runtime dies during is announced once, and its snapshot kept
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the provider replies "first"
    And the provider holds its reply "second" until "reply" is released
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be thorough"
    And the user steers "two"
    And the provider has received 2 requests
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "GLOBAL: be thorough"
    # checks: MCS-01
    And request 2 tells the model "GLOBAL: be thorough" after "two", unless it tells changes only in its baseline
    And request 3 tells the model "GLOBAL: be thorough" once
  @INS-01 @MCS-01 @id:ins-files-4
  Scenario: [4] Two files changed before one boundary reach the model in one message
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be verbose"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "PROJECT: use spaces"
    # checks: MCS-01
    And request 2 tells the model "GLOBAL: be verbose" after "two", unless it tells changes only in its baseline
    # checks: INS-01
    And request 2 tells the model the instructions in an order the seeds allow, in one message beside "two":
      | global  | GLOBAL: be verbose  |
      | project | PROJECT: use spaces |

  @CTX-07 @id:ins-files-5
  Scenario: [5] An unreadable file keeps the instructions admitted before until it reads again
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" cannot be read
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two", or the runtime read the file that cannot be read as removed and no longer tells "PROJECT: use tabs" there
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "three"
    And the session settles
    # checks: INS-01
    Then request 3 tells the model "PROJECT: use spaces"
    And request 3 tells the model "PROJECT: use spaces" beside "three"

  @CTX-07 @needs:restart @id:ins-files-5-restart
  Scenario: [5r] A file unreadable when the runtime starts again keeps the instructions admitted before until it reads again
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model "PROJECT: use spaces" beside "two", or nothing here is judged
    When the file "AGENTS.md" in the workspace "s1" cannot be read
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    Then request 3 tells the model nothing beside "three", or the runtime read the file that cannot be read as removed and no longer tells "PROJECT: use spaces" there
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use commas"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "four"
    And the session settles
    Then request 4 tells the model "PROJECT: use commas" beside "four"

  @CTX-07 @id:ins-files-5-global
  Scenario: [5g] An unreadable global instruction file keeps the instructions admitted before until it reads again
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "home" cannot be read
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two", or the runtime read the file that cannot be read as removed and no longer tells "GLOBAL: be brief" there
    When the global instructions say "GLOBAL: be thorough"
    And the user steers "three"
    And the session settles
    Then request 3 tells the model "GLOBAL: be thorough" beside "three", or nothing above was judged

  @CTX-07 @needs:restart @id:ins-files-5-global-restart
  Scenario: [5gr] A global instruction file unreadable when the runtime starts again keeps the instructions admitted before until it reads again
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be thorough"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model "GLOBAL: be thorough" beside "two", or nothing here is judged
    When the file "AGENTS.md" in the workspace "home" cannot be read
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    Then request 3 tells the model nothing beside "three", or the runtime read the file that cannot be read as removed and no longer tells "GLOBAL: be thorough" there
    When the global instructions say "GLOBAL: be terse"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "four"
    And the session settles
    Then request 4 tells the model "GLOBAL: be terse" beside "four"

  @CTX-13 @id:ins-files-6
  Scenario: [6] A file changed and changed back between boundaries tells the model nothing
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two"
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "three"
    And the session settles
    Then request 3 tells the model "PROJECT: use spaces" beside "three", or nothing above was judged

  @CTX-13 @needs:restart @id:ins-files-6-restart
  Scenario: [6r] A file changed and changed back while the runtime was down tells the model nothing when it reads again
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two"
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    Then request 3 tells the model "PROJECT: use spaces" beside "three", or nothing above was judged

  @CTX-14 @id:ins-files-7
  Scenario: [7] A file changed while the session is idle does not wake it; the next prompt carries the change
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And a session "s2"
    And the provider replies to "one" with "first"
    And the provider replies to "meanwhile" with "elsewhere"
    And the provider replies to "two" with "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "meanwhile" to session "s2"
    And session "s2" settles
    Then the provider received 2 requests
    When the user steers "two"
    And the session settles
    # Whether it tells the change in a message is other rules': here only that it read it.
    Then request 3 carries "PROJECT: use spaces" in a message or its baseline, or nothing above was judged

  @CTX-13 @id:ins-files-6-global
  Scenario: [6g] The global instruction file changed and changed back between boundaries tells the model nothing
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be thorough"
    And the global instructions say "GLOBAL: be brief"
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two"
    When the global instructions say "GLOBAL: be thorough"
    And the user steers "three"
    And the session settles
    Then request 3 tells the model "GLOBAL: be thorough" beside "three", or nothing above was judged

  @CTX-13 @needs:restart @id:ins-files-6-global-restart
  Scenario: [6gr] The global instruction file changed and changed back while the runtime was down tells the model nothing when it reads again
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be thorough"
    And the global instructions say "GLOBAL: be brief"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two"
    When the global instructions say "GLOBAL: be thorough"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    Then request 3 tells the model "GLOBAL: be thorough" beside "three", or nothing above was judged

  @CTX-14 @id:ins-files-7-global
  Scenario: [7g] The global instruction file changed while the session is idle does not wake it; the next prompt carries the change
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And a session "s2"
    And the provider replies to "one" with "first"
    And the provider replies to "meanwhile" with "elsewhere"
    And the provider replies to "two" with "second"
    And the user steers "one"
    And the session settles
    When the global instructions say "GLOBAL: be thorough"
    And the user steers "meanwhile" to session "s2"
    And session "s2" settles
    Then the provider received 2 requests
    When the user steers "two"
    And the session settles
    # Whether it tells the change in a message is other rules': here only that it read it.
    Then request 3 carries "GLOBAL: be thorough" in a message or its baseline, or nothing above was judged

  @EPO-04 @needs:restart @id:ins-files-8
  Scenario: [8] Across a restart the baseline is reused byte for byte and the change arrives after the prompt
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    # checks: INB-06
    When the runtime process restarts
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    # Reused across the restart: what the runtime keeps of the text it sent is EPO-05's, judged on its own.
    # checks: EPO-04
    Then the baselines of requests 1 and 2 are byte for byte the same
    # checks: INS-01
    And request 2 tells the model "PROJECT: use spaces"
    # checks: MCS-01
    And request 2 tells the model "PROJECT: use spaces" after "two", unless it tells changes only in its baseline

  @EPO-06 @id:ins-files-9
  Scenario: [9] After a compaction the fresh baseline carries the current files and nothing restates them
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
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
    When the global instructions say "GLOBAL: be verbose"
    And the user steers "two"
    And the session settles
    Then request 3 asked for a summary rather than the turn "two", or nothing here is judged
    And the last request ends with the pending input "two", or nothing here is judged
    # What the fresh baseline carries, wherever the runtime puts it after a compaction (where the baseline stands is EPO-01's).
    And the last request contains "GLOBAL: be verbose" somewhere
    And the last request does not contain "GLOBAL: be brief" anywhere
    And the last request tells the model "GLOBAL: be verbose" once

  @MCS-02 @MCS-05 @id:ins-files-10
  Scenario: [10] The history keeps the system message of a changed file as sent
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs", ending with a newline
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces", ending with a newline
    And the user steers "two"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "PROJECT: use spaces"
    # checks: MCS-02 MCS-05
    And request 2 tells the model "PROJECT: use spaces" beside "two", or nothing here is judged
    # checks: MCS-02 MCS-05
    And the history holds the system message of request 2

  @MCS-02 @MCS-05 @needs:restart @id:ins-files-10-restart
  Scenario: [10b] The history keeps the system message of a file changed while the runtime was down as sent
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs", ending with a newline
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces", ending with a newline
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    # checks: MCS-02 MCS-05
    Then request 2 tells the model "PROJECT: use spaces" beside "two", or nothing here is judged
    # checks: MCS-02 MCS-05
    And the history holds the message of request 2 that tells "PROJECT: use spaces", as sent

  @INS-01 @CTX-04 @id:ins-files-11
  Scenario: [11] A file that appears during an epoch is told in full once, at the next boundary
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "PROJECT: use tabs"
    # checks: INS-01
    And request 2 tells the model "PROJECT: use tabs" beside "two"
    When the user steers "three"
    And the session settles
    # checks: CTX-04
    Then request 3 tells the model nothing beside "three"
    # checks: CTX-04 MCS-05
    And request 3 tells the model "PROJECT: use tabs" once

  @EPO-02 @EPO-03 @id:ins-files-12
  Scenario: [12] An unreadable file at the first turn sends nothing and keeps the prompt pending until it reads
    Given the file "AGENTS.md" in the workspace "s1" cannot be read
    And a session "s1"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    # checks: EPO-02 INS-07
    Then the provider received no request, or the runtime read the file that cannot be read as removed and sent "hello"
    # checks: EPO-02 EPO-03
    And the inbox is:
      | text  | state   |
      | hello | pending |
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And the session is woken
    And the session settles
    # checks: EPO-02
    Then the provider received 1 request
    # checks: EPO-02
    And the baseline of request 1 contains, in order:
      | PROJECT: use tabs |
    # checks: EPO-02
    And request 1 has the messages:
      | role | content |
      | user | hello   |

  @INS-07 @needs:fault-injection @id:ins-files-12-vanished
  Scenario: [12v] A file that vanishes while the first turn reads it sends nothing and keeps the prompt pending until it reads
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "ok"
    When the file "AGENTS.md" in the workspace "s1" vanishes while the runtime next reads it
    And the user steers "hello"
    And the session settles
    # checks: INS-07 EPO-02
    Then the provider received 0 requests
    # checks: EPO-02 EPO-03
    And the inbox is:
      | text  | state   |
      | hello | pending |
    When the session is woken
    And the session settles
    # checks: EPO-02
    Then the provider received 1 request
    # checks: INS-07 EPO-02
    And the baseline of request 1 contains, in order:
      | PROJECT: use tabs |
    # checks: EPO-02
    And request 1 has the messages:
      | role | content |
      | user | hello   |

  @EPO-05 @id:ins-files-13
  Scenario: [13] The epoch keeps the exact baseline sent, instruction files included
    Given the global instructions say "GLOBAL: quote <tags> & ampersands"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs", ending with a newline
    And a session "s1"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then the epoch baseline is exactly the baseline sent in request 1

  @EPO-07 @id:ins-files-14
  Scenario: [14] A moved session starts a fresh baseline from the instruction files of its destination
    Given the file "AGENTS.md" in the workspace "s1" says "HERE: use tabs"
    And the file "AGENTS.md" in the workspace "s1-elsewhere" says "THERE: use spaces"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When session "s1" moves to a new workspace "s1-elsewhere"
    And the file "AGENTS.md" in the workspace "s1" says "HERE: use two spaces"
    And the user steers "two"
    And the session settles
    # The old location's files kept in the baseline after the move are the epoch's (EPO-07).
    # checks: EPO-07
    Then no request after request 1 contains "HERE: use tabs"
    # checks: EPO-07
    And the baseline of request 2 contains, in order:
      | THERE: use spaces |
    # checks: EPO-07
    And the baseline of request 2 does not contain "HERE: use tabs"
    # checks: EPO-07
    And request 2 tells the model nothing beside "two"
    # The old location's file, changed after the move, reaches a turn only through a runtime that
    # still reads its context there: the move's fence (RUN-08), whatever the epoch kept.
    # checks independently: RUN-08
    And no request after request 1 contains "HERE: use two spaces"

  @MCS-04 @id:ins-files-15
  Scenario: [15] A changed file told before a failed provider attempt is told once on the next attempt
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider answers with status 400
    And the provider replies "second" to every later turn
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    # Whether the failed attempt is sent again before "three" the seeds leave to the runtime: the last
    # request is the next attempt's history either way.
    # checks: INS-01
    Then the last request tells the model "PROJECT: use spaces"
    And the last request tells the model "PROJECT: use spaces" beside "two", unless it tells changes only in its baseline
    And the last request tells the model "PROJECT: use spaces" once

  @MCS-04 @needs:restart @id:ins-files-15-restart
  Scenario: [15b] A file changed while the runtime was down, told before a failed provider attempt, is told once on the next attempt
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider answers with status 400
    And the provider replies "second" to every later turn
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    Then request 2 tells the model "PROJECT: use spaces" beside "two", or nothing here is judged
    And the last request tells the model "PROJECT: use spaces" beside "two"
    And the last request tells the model "PROJECT: use spaces" once

  @MCS-06 @dialect:openai-chat @id:ins-files-16
  Scenario: [16] A changed file reaches a provider with a chronological system role in that role
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "PROJECT: use spaces"
    And request 2 tells the model "PROJECT: use spaces" beside "two", or nothing here is judged
    And request 2 carries its system message with the native system role

  @EPO-09 @id:ins-files-17
  Scenario: [17] After a compaction, an unreadable file admitted before holds the new baseline back
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the provider replies "again"
    And the user steers "one"
    And the session settles
    # A second turn within budget: what the runtime keeps verbatim of its newest turn leaves the long reply to fold.
    And the user steers "one more"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the file "AGENTS.md" in the workspace "s1" cannot be read
    And the user steers "two"
    And the session settles
    Then request 3 asked for a summary rather than the turn "two", or nothing here is judged
    And every request after request 3 keeps the baseline of request 1, or the runtime read the file that cannot be read as removed and its new baseline lacks "PROJECT: use tabs"
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "three"
    And the session settles
    # checks: INS-01
    Then the last request tells the model "PROJECT: use spaces"
    And the baseline of the last request contains, in order:
      | PROJECT: use spaces |
    And the last request mentions "three" in its conversation

  @EPO-09 @id:ins-files-17-global
  Scenario: [17g] After a compaction, an unreadable global instruction file admitted before holds the new baseline back
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider replies "noted"
    And the provider summarizes with "SUMMARY: a long answer"
    And the provider replies "done"
    And the provider replies "again"
    And the user steers "one"
    And the session settles
    # A second turn within budget: what the runtime keeps verbatim of its newest turn leaves the long reply to fold.
    And the user steers "one more"
    And the session settles
    And the context budget is sized so that one long reply overflows it
    When the file "AGENTS.md" in the workspace "home" cannot be read
    And the user steers "two"
    And the session settles
    Then request 3 asked for a summary rather than the turn "two", or nothing here is judged
    And every request after request 3 keeps the baseline of request 1, or the runtime read the file that cannot be read as removed and its new baseline lacks "GLOBAL: be brief"
    When the global instructions say "GLOBAL: be thorough"
    And the user steers "three"
    And the session settles
    # checks: INS-01
    Then the last request tells the model "GLOBAL: be thorough"
    And the baseline of the last request contains, in order:
      | GLOBAL: be thorough |
    And the last request mentions "three" in its conversation
  @CTX-09 @profile:core @id:ins-files-18
  Scenario: [18] When the last instruction file goes, the model is told the runtime's removal text after the prompt
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    And request 2 tells the model "PROJECT: use spaces"
    When the file "AGENTS.md" in the workspace "s1" is deleted
    And the user steers "three"
    And the session settles
    # checks: CTX-09 INS-04
    Then request 3 tells the model the declared text "instructions.revocation" beside "three"
    # checks: CTX-09 INS-04
    And request 3 does not tell the model "PROJECT: use spaces" beside "three"

  @CTX-09 @profile:core @id:ins-files-18-global
  Scenario: [18g] When the global instruction file goes and no other remains, the model is told the runtime's removal text after the prompt
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the global instructions say "GLOBAL: be thorough"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    And request 2 tells the model "GLOBAL: be thorough"
    When the file "AGENTS.md" in the workspace "home" is deleted
    And the user steers "three"
    And the session settles
    Then request 3 tells the model the declared text "instructions.revocation" beside "three"
    And request 3 does not tell the model "GLOBAL: be thorough" beside "three"
  @EPO-08 @profile:core @id:ins-files-19
  Scenario: [19] A model switch keeps the baseline, though an instruction file changed before the next turn
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the session selects the model "kit-model-2"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    Then request 1 uses the model "kit-model"
    And request 2 uses the model "kit-model-2"
    And the baselines of requests 1 and 2 are byte for byte the same

  @CTX-17 @id:ins-files-20
  Scenario: [20] With no instruction file anywhere, provider turns still run and nothing is told after the prompt
    Given a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    When the user steers "hello"
    And the session settles
    And the user steers "again"
    And the session settles
    Then the provider received 2 requests
    And request 2 tells the model nothing beside "again"
    # checks: CTX-17 EPO-04
    And the baselines of requests 1 and 2 are byte for byte the same

  @CTX-12 @profile:core @id:ins-files-21
  Scenario: [21] The epoch keeps the instruction files as a value, with the removal text rendered when it was admitted
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then the epoch holds "PROJECT: use tabs" in one source, as a value and not as the text of the baseline of request 1
    # checks: CTX-12 CTX-09
    And the epoch holds the removal text the declared text "instructions.revocation" for that source

  @CTX-04 @needs:restart @id:ins-files-restart-2
  Scenario: [22] A changed file told before a restart is not told again after it
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    And request 2 tells the model "PROJECT: use spaces"
    And request 2 tells the model "PROJECT: use spaces" beside "two", or nothing here is judged
    # checks: INB-06
    When the runtime process restarts
    And the user steers "three"
    And the session settles
    Then request 3 tells the model nothing beside "three"
    And request 3 tells the model "PROJECT: use spaces" once

  @CTX-05 @id:ins-files-23
  Scenario: [23] A file edited back and forth is told at each change, though the same text was told before
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the user steers "one"
    And the session settles
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    And request 2 tells the model "PROJECT: use spaces"
    And the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And the user steers "three"
    And the session settles
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the user steers "four"
    And the session settles
    # A runtime that tells a change only in a baseline it builds anew sends no message to read here:
    # that it rebuilds the baseline is EPO-04's, judged where the baseline is compared.
    Then request 3 tells the model "PROJECT: use tabs" beside "three", unless it tells changes only in its baseline
    And request 4 tells the model "PROJECT: use spaces" beside "four", unless it tells changes only in its baseline
    And request 4 does not tell the model "PROJECT: use tabs" beside "four"

  @EPO-06 @id:ins-files-24
  Scenario: [24] After a second compaction, a file change told in the epoch before it leaves what the model sees
    Given the global instructions say "GLOBAL: be brief"
    And a session "s1"
    And the context budget holds a long reply
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY-ONE: a long answer to one"
    And the provider replies with a long reply
    And the provider refuses the request as too long for its context window
    And the provider summarizes with "SUMMARY-TWO: long answers to one and two"
    And the provider replies "done"
    And the user steers "one"
    And the session settles
    And the global instructions say "GLOBAL: be verbose"
    And the user steers "two"
    And the session settles
    # checks: CMP-10
    And the session has 1 completed compaction
    When the global instructions say "GLOBAL: be terse"
    And the user steers "three"
    And the session settles
    # checks: CMP-10
    Then the session has 2 completed compactions
    And the baseline of the last request contains, in order:
      | GLOBAL: be terse |
    And the last request tells the model "GLOBAL: be terse" once
    And the last request does not tell the model "GLOBAL: be verbose" beside "three"

  @EPO-07 @id:ins-files-25
  Scenario: [25] A session moved to another directory of its project starts a fresh baseline there, with that directory's files
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "a/AGENTS.md" in the workspace "project" says "PACKAGE A: use tabs"
    And the file "b/AGENTS.md" in the workspace "project" says "PACKAGE B: use spaces"
    And a session "s1" working in "a" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When session "s1" moves to "b" of the project "project"
    And the file "a/AGENTS.md" in the workspace "project" says "PACKAGE A: use two spaces"
    And the user steers "two"
    And the session settles
    Then the baseline of request 2 contains, in order:
      | PACKAGE B: use spaces |
    # checks: EPO-07
    And the baseline of request 2 does not contain "PACKAGE A: use tabs"
    # checks: EPO-07
    And the baseline of request 2 names the working directory of "s1"
    And request 2 tells the model nothing beside "two"
    # The root's file is found upward from either directory: whether it is, and in which order, is
    # the discovery's (INS-01), not the move's.
    # checks: INS-01
    And the baseline of request 2 contains the instructions in an order the seeds allow:
      | project | PACKAGE B: use spaces |
      | project | ROOT: run the tests   |
    # The directory left, its file changed after the move, is no context of any later turn (RUN-08).
    # checks independently: RUN-08
    And no request after request 1 contains "PACKAGE A: use two spaces"

  @INS-01 @id:ins-files-mid-drain-1 @needs:kit-tools
  Scenario: [26] A file edited while a tool runs reaches the model at the drain's next boundary, after the tool result, with no new prompt
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: use tabs"
    And a session "s1"
    And the provider calls gate "g1"
    And the provider replies "done"
    And the user steers "start"
    And the gate "g1" is blocked
    When the file "AGENTS.md" in the workspace "s1" says "PROJECT: use spaces"
    And the gate "g1" opens
    And the session settles
    Then the provider received 2 requests
    And request 1 does not contain "PROJECT: use spaces" anywhere
    And request 2 contains "PROJECT: use spaces" somewhere
    # checks: MCS-01
    And request 2 tells the model, after "gate g1 opened", in this order, or nothing above was judged:
      | PROJECT: use spaces |
