@area:tools
Feature: Pty1 - The PTY environment
  A PTY's environment merges the caller's values, then the host overlay, then the terminal
  variables the runtime forces. The overlay is observed for the request location and the PTY's
  resolved working directory; a standalone server has none.

  @PTY-01 @id:pty-environment-1 @needs:pty
  Scenario: [1] Caller values, then the host overlay, then forced terminal variables
    Given the host overlay for PTYs in the workspace "w1" sets:
      | name  | value     |
      | SHARED | from-host |
      | TERM  | host-term |
    When a PTY is requested in the workspace "w1" with:
      | name              | value       |
      | SHARED            | from-caller |
      | CALLER_ONLY       | kept        |
      | TERM              | caller-term |
      | OPENCODE_TERMINAL | caller      |
    Then the PTY environment has:
      | name        | value     |
      | SHARED      | from-host |
      | CALLER_ONLY | kept      |
    And the PTY environment forces "TERM, OPENCODE_TERMINAL" over the caller and the overlay

  @PTY-02 @id:pty-environment-2 @needs:pty
  Scenario: [2] The overlay is observed for the location and working directory; standalone has none
    Given the host overlay for PTYs in the workspace "w1" sets:
      | name  | value |
      | WHERE | one   |
    And the host overlay for PTYs in the workspace "w2" sets:
      | name  | value |
      | WHERE | two   |
    When a PTY is requested in the workspace "w1" working in "sub" with:
      | name | value |
    Then the PTY environment has:
      | name  | value |
      | WHERE | one   |
    And the PTY works in "sub" of the workspace "w1", as the overlay observed
    When a PTY is requested in the workspace "w1" from a standalone server with:
      | name | value |
    Then the PTY environment has none of "WHERE, KIT_PTY_CWD"
