@area:tools
Feature: BashPermission1 - Permission for the runtime's shell
  The shell runs under the agent's rule for it, and asks the user when the agent has none. A
  structured working directory outside the location needs the external directory approval before
  the command runs; absolute paths written in the command never ask for anything.

  @TLS-05 @id:tls-bash-permission-1
  Scenario: [1] An agent without a rule for the shell asks first; approved, the command runs
    Given the agent "reviewer" may use the tools:
      | read | allow |
    And a session "s1"
    And the session selects the agent "reviewer"
    And the provider runs the shell command "printf ran > ran.txt" as "b1"
    And the provider replies "done"
    And the user steers "start"
    # checks: TLS-05
    When a tool call waits for permission
    Then the workspace "s1" has no file "ran.txt"
    When the user approves the waiting tool call
    And the session settles
    Then call "b1" settled as success
    And the file "ran.txt" in the workspace "s1" holds:
      """
      ran
      """

  @TLS-05 @id:tls-bash-permission-2
  Scenario: [2] An agent without a rule for the shell asks first; declined, the command does not run
    Given the agent "reviewer" may use the tools:
      | read | allow |
    And a session "s1"
    And the session selects the agent "reviewer"
    And the provider runs the shell command "printf ran > ran.txt" as "b1"
    And the provider replies "done"
    And the user steers "start"
    # checks: TLS-05
    When a tool call waits for permission
    And the user declines the waiting tool call
    And the session settles
    Then call "b1" was refused, settled as error or interrupted
    And the workspace "s1" has no file "ran.txt"

  @TLS-05 @id:tls-bash-permission-3
  Scenario: [3] An agent allowed the shell runs the command without asking
    Given the agent "reviewer" has the rule allow for the shell
    And a session "s1"
    And the session selects the agent "reviewer"
    And the provider runs the shell command "printf ran > ran.txt" as "b1"
    And the provider replies "done"
    When the user steers "start"
    # checks: TLS-05
    And the session settles
    Then no tool call waits for permission
    And call "b1" settled as success
    And the file "ran.txt" in the workspace "s1" holds:
      """
      ran
      """

  @TLS-05 @id:tls-bash-permission-4
  Scenario: [4] An agent denied the shell is refused without asking
    Given the agent "reviewer" has the rule deny for the shell
    And a session "s1"
    And the session selects the agent "reviewer"
    And the provider runs the shell command "printf ran > ran.txt" as "b1"
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then no tool call waits for permission
    And call "b1" settled as error
    And the workspace "s1" has no file "ran.txt"

  @TLS-05 @id:tls-bash-workdir-1
  Scenario: [5] A working directory outside the location asks for the external directory; declined, the command does not run
    Given a session "s1"
    And the workspace "s1-sibling" has a directory "work"
    And the provider runs the shell command "printf ran > ran.txt" as "b1" working in "{workspace:s1-sibling}/work"
    And the provider replies "done"
    And the user steers "start"
    # checks: TLS-05
    When a tool call waits for permission
    And the user declines the waiting tool call
    And the session settles
    Then call "b1" was refused, settled as error or interrupted
    And the workspace "s1-sibling" has no file "work/ran.txt"
    And the workspace "s1" has no file "ran.txt"

  @TLS-05 @id:tls-bash-workdir-2
  Scenario: [6] A working directory outside the location, once approved, is where the command runs
    Given a session "s1"
    And the workspace "s1-sibling" has a directory "work"
    And the provider runs the shell command "printf ran > ran.txt" as "b1" working in "{workspace:s1-sibling}/work"
    And the provider replies "done"
    And the user steers "start"
    # checks: TLS-05
    When a tool call waits for permission
    And the user approves the waiting tool call
    And the session settles
    Then call "b1" settled as success
    And the file "work/ran.txt" in the workspace "s1-sibling" holds:
      """
      ran
      """

  @TLS-05 @id:tls-bash-workdir-3
  Scenario: [7] A working directory inside the location runs without asking
    Given a session "s1"
    And the workspace "s1" has a directory "sub"
    And the provider runs the shell command "printf ran > ran.txt" as "b1" working in "{workspace:s1}/sub"
    And the provider replies "done"
    When the user steers "start"
    # checks: TLS-05
    And the session settles
    Then no tool call waits for permission
    And call "b1" settled as success
    And the file "sub/ran.txt" in the workspace "s1" holds:
      """
      ran
      """

  @TLS-05 @id:tls-bash-absolute-1
  Scenario: [8] An absolute path outside the location in the command text asks for nothing
    Given a session "s1"
    And the workspace "s1-sibling" has a directory "work"
    And the provider runs the shell command "printf ran > {workspace:s1-sibling}/work/ran.txt" as "b1"
    And the provider replies "done"
    When the user steers "start"
    # checks: TLS-05
    And the session settles
    Then no tool call waits for permission
    And call "b1" settled as success
    And the file "work/ran.txt" in the workspace "s1-sibling" holds:
      """
      ran
      """

  @TLS-05 @id:tls-bash-permission-saved-1 @needs:restart
  Scenario: [9] An approval saved for the project lets the same command run without asking in a later session in another directory of the project, after a restart
    Given the runtime declares the choice "approval.saved-for-project"
    And the agent "reviewer" may use the tools:
      | read | allow |
    And a session "s1" working in "." of the project "p"
    And the session selects the agent "reviewer"
    And the provider runs the shell command "echo ran >> ran.txt" as "b1"
    And the provider replies "done"
    And the provider runs the shell command "echo ran >> ran.txt" as "b2"
    And the provider replies "done again"
    And the user steers "start"
    And a tool call waits for permission
    When the user approves the waiting tool call for the project
    And the session settles
    # checks: INB-06
    And the runtime process restarts
    And a session "s2" working in "pkg" of the project "p"
    And the session "s2" selects the agent "reviewer"
    And the user steers "again" to session "s2"
    Then session "s2" settles without asking for permission
    And call "b2" settled as success
    And "ran.txt" in the workspace of "s1" has 1 line
    And "ran.txt" in the workspace of "s2" has 1 line

  @TLS-05 @id:tls-bash-permission-saved-2
  Scenario: [10] An approval saved for the project covers that command in that project only
    Given the runtime declares the choice "approval.saved-for-project"
    And the agent "reviewer" may use the tools:
      | read | allow |
    And a session "s1" working in "." of the project "p"
    And the session selects the agent "reviewer"
    And the provider runs the shell command "echo ran >> ran.txt" as "b1"
    And the provider replies "done"
    And the provider runs the shell command "echo other >> ran.txt" as "b2"
    And the provider replies to "another command" with "done in p"
    And the provider runs the shell command "echo ran >> ran.txt" as "b3"
    And the provider replies to "another project" with "done in q"
    And the user steers "start"
    And a tool call waits for permission
    When the user approves the waiting tool call for the project
    And the session settles
    And a session "s2" working in "." of the project "p"
    And the session "s2" selects the agent "reviewer"
    And a session "s3" working in "." of the project "q"
    And the session "s3" selects the agent "reviewer"
    And the user steers "another command" to session "s2"
    Then a tool call of session "s2" waits for permission
    When the user declines the waiting tool call of session "s2"
    And session "s2" settles
    And the user steers "another project" to session "s3"
    Then a tool call of session "s3" waits for permission
    When the user declines the waiting tool call of session "s3"
    And session "s3" settles
    Then "ran.txt" in the workspace of "s1" has 1 line
    And the workspace "q" has no file "ran.txt"
