@area:instructions
Feature: Instructions1 - Ambient AGENTS.md instructions
  The global AGENTS.md and the project's AGENTS.md files from the session's location up to the
  project root form one ordered aggregate Context Source. Supersession and revocation wording is
  what the runtime declares in its handshake; where the global file stands, and whether project
  files run from the nearest or from the root, the seeds leave open.

  @INS-01 @id:ins-instructions-1
  Scenario: [1] Global and upward project files form one ordered aggregate, non-ASCII text included
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: indent with tabs → 4 columns, naïve café ✓"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then the baseline of request 1 contains the instructions in an order the seeds allow:
      | global  | GLOBAL: be brief                                     |
      | project | PACKAGE: indent with tabs → 4 columns, naïve café ✓ |
      | project | ROOT: run the tests                                  |

  @INS-02 @profile:core @id:ins-instructions-2
  Scenario: [2] A changed file restates the complete current set, superseding the old one
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "project" says "ROOT: run the linter"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    Then request 2 tells the model "ROOT: run the linter"
    And the last system message of request 2 begins with the declared text "instructions.supersession"
    And the last system message of request 2 contains the instructions in an order the seeds allow:
      | global  | GLOBAL: be brief     |
      | project | PACKAGE: use tabs    |
      | project | ROOT: run the linter |
    And the last system message of request 2 does not contain "ROOT: run the tests"

  @INS-03 @profile:core @id:ins-instructions-3
  Scenario: [3] Removing one file restates the remaining set, superseding the old one
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the linter"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    And request 2 tells the model "ROOT: run the linter"
    When the file "pkg/AGENTS.md" in the workspace "project" is deleted
    And the user steers "three"
    And the session settles
    Then the last system message of request 3 begins with the declared text "instructions.supersession"
    And the last system message of request 3 contains the instructions in an order the seeds allow:
      | global  | GLOBAL: be brief     |
      | project | ROOT: run the linter |
    And the last system message of request 3 does not contain "PACKAGE: use tabs"

  @INS-04 @profile:core @id:ins-instructions-4
  Scenario: [4] When no instructions remain, the message revokes them
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the linter"
    And the user steers "two"
    And the session settles
    # checks: INS-01
    And request 2 tells the model "ROOT: run the linter"
    When the file "AGENTS.md" in the workspace "project" is deleted
    And the user steers "three"
    And the session settles
    # checks: INS-04 CTX-09
    Then the last system message of request 3 is the declared text "instructions.revocation"

  @INS-02 @profile:core @needs:restart @id:ins-instructions-2-restart
  Scenario: [2b] A file changed while the runtime was down restates the complete current set at the next turn
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "project" says "ROOT: run the linter"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model "ROOT: run the linter" beside "two", or nothing here is judged
    And request 2 tells the model the instructions in an order the seeds allow, in one message beside "two":
      | global  | GLOBAL: be brief     |
      | project | PACKAGE: use tabs    |
      | project | ROOT: run the linter |
    And request 2 does not tell the model "ROOT: run the tests" beside "two"
    And request 2 tells "ROOT: run the linter" beside "two" in a message that begins with the declared text "instructions.supersession"

  @INS-03 @profile:core @needs:restart @id:ins-instructions-3-restart
  Scenario: [3b] A file removed while the runtime was down restates the remaining set at the next turn
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "pkg/AGENTS.md" in the workspace "project" is deleted
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model "ROOT: run the tests" beside "two", or nothing here is judged
    And request 2 tells the model the instructions in an order the seeds allow, in one message beside "two":
      | global  | GLOBAL: be brief    |
      | project | ROOT: run the tests |
    And request 2 does not tell the model "PACKAGE: use tabs" beside "two"
    And request 2 tells "ROOT: run the tests" beside "two" in a message that begins with the declared text "instructions.supersession"

  @INS-04 @profile:core @needs:restart @id:ins-instructions-4-restart
  Scenario: [4b] When no instructions remain after the runtime was down, the next turn revokes them
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "project" is deleted
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model the declared text "instructions.revocation" beside "two"
    And request 2 does not tell the model "ROOT: run the tests" beside "two"

  @INS-05 @id:ins-instructions-5 @needs:host-env
  Scenario: [5] OPENCODE_DISABLE_PROJECT_CONFIG turns project discovery off and keeps the global file
    Given the global instructions say "GLOBAL: be brief"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PKG: lint first"
    And a session "s0" working in "pkg" of the project "project"
    And the provider replies "ok"
    And the provider replies "ok"
    And the user steers "hello" to session "s0"
    And session "s0" settles
    # Without the switch the runtime reads the location's own file, or the switch has nothing to turn off here.
    And the baseline of request 1 contains "PKG: lint first", or nothing here is judged
    # The switch is the action under test: a runtime that reads no such variable refuses it.
    When the host environment sets OPENCODE_DISABLE_PROJECT_CONFIG to "1"
    And a session "s1" working in "pkg" of the project "project"
    And the user steers "hello" to session "s1"
    And session "s1" settles
    Then the baseline of request 2 contains, in order:
      | GLOBAL: be brief |
    And the baseline of request 2 does not contain "ROOT: run the tests"
    And the baseline of request 2 does not contain "PKG: lint first"

  @INS-06 @id:ins-instructions-6
  Scenario: [6] Discovery reads nothing outside the project root, not even through a link to a sibling whose path begins with the root's
    Given the file "AGENTS.md" in the workspace "project-outside" says "OUTSIDE: leaked"
    And the file "AGENTS.md" in the workspace "." says "ABOVE: leaked"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" is a link to "../../project-outside/AGENTS.md"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then the baseline of request 1 does not contain "OUTSIDE: leaked"
    # Where discovery stops shows only in a runtime that reads upward at all (INS-01's).
    And the baseline of request 1 contains "ROOT: run the tests", or nothing here is judged
    And the baseline of request 1 does not contain "ABOVE: leaked"

  @INS-07 @id:ins-instructions-7
  Scenario: [7] A file that cannot be read leaves the admitted instructions in force
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "pkg/AGENTS.md" in the workspace "project" cannot be read
    And the user steers "two"
    And the session settles
    # checks: INS-07 CTX-07
    Then request 2 tells the model nothing beside "two", or the runtime read the file that cannot be read as removed and no longer tells "PACKAGE: use tabs" there
    When the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use spaces"
    And the user steers "three"
    And the session settles
    # checks: INS-07 CTX-07
    Then request 3 tells the model "PACKAGE: use spaces" beside "three", or nothing above was judged

  @INS-07 @needs:fault-injection @id:ins-instructions-7-vanished
  Scenario: [7v] A file that vanishes while it is read leaves the admitted instructions in force
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use spaces"
    And the file "pkg/AGENTS.md" in the workspace "project" vanishes while the runtime next reads it
    And the user steers "two"
    And the session settles
    # checks: INS-07 CTX-07
    Then request 2 tells the model nothing beside "two"
    # checks: INS-07 CTX-07
    And every request after request 1 keeps the baseline of request 1
    When the user steers "three"
    And the session settles
    # checks: INS-07 CTX-07
    Then request 3 tells the model "PACKAGE: use spaces" beside "three"

  @INS-07 @needs:restart @id:ins-instructions-7-restart
  Scenario: [7r] A file that cannot be read when the runtime starts again leaves the admitted instructions in force
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the user steers "one"
    And the session settles
    When the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use spaces"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 2 tells the model "PACKAGE: use spaces" beside "two", or nothing here is judged
    When the file "pkg/AGENTS.md" in the workspace "project" cannot be read
    # checks: INB-06
    And the runtime process restarts
    And the user steers "three"
    And the session settles
    # checks: INS-07 CTX-07
    Then request 3 tells the model nothing beside "three", or the runtime read the file that cannot be read as removed and no longer tells "PACKAGE: use spaces" there
    When the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use commas"
    # checks: INB-06
    And the runtime process restarts
    And the user steers "four"
    And the session settles
    # checks: INS-07 CTX-07
    Then request 4 tells the model "PACKAGE: use commas" beside "four"

  @INS-07 @id:ins-instructions-7-global
  Scenario: [7g] A global instruction file that cannot be read leaves the admitted instructions in force
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

  @INS-07 @needs:restart @id:ins-instructions-7-global-restart
  Scenario: [7gr] A global instruction file that cannot be read when the runtime starts again leaves the admitted instructions in force
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
