@area:system-messages
Feature: HostDate1 - The host-local date across a restart
  A runtime without a virtual clock takes its date from the host. The kit moves that date by
  restarting the runtime in another time zone: Etc/GMT+12 and Pacific/Kiritimati are 26 hours
  apart, so they are on different calendar dates at every instant.

  @MCS-07 @EPO-04 @needs:restart @id:mcs-host-date-1
  Scenario: [1] Restarted a day ahead, the runtime states the new local date after the prompt and keeps its baseline
    Given the runtime's host is in the time zone "Etc/GMT+12"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    # checks: INB-06
    When the runtime process restarts in the time zone "Pacific/Kiritimati"
    And the user steers "two"
    And the session settles
    # checks: MCS-07
    Then request 2 tells the model the local date in "Pacific/Kiritimati" in its conversation
    # checks: MCS-07
    And request 2 does not tell the model the local date in "Etc/GMT+12" beside "two"
    # checks: EPO-04 EPO-05
    And the baselines of requests 1 and 2 are byte for byte the same
    # Where the date is told is MCS-01's, checked last: the failure of a check of a rule the
    # scenario is not about voids the checks after it. Whether the first baseline states the
    # date is EPO-10's, in scenario 3: one time zone alone shares UTC's date for part of the day.
    # checks: MCS-01
    And request 2 tells the model the local date in "Pacific/Kiritimati" after "two"

  @MCS-07 @needs:restart @id:mcs-host-date-2
  Scenario: [2] Restarted in the same time zone, the runtime tells the model nothing about the date
    Given the runtime's host is in the time zone "Pacific/Kiritimati"
    And a session "s1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    # checks: INB-06
    When the runtime process restarts in the time zone "Pacific/Kiritimati"
    And the user steers "two"
    And the session settles
    Then request 2 tells the model nothing beside "two"

  @EPO-10 @needs:restart @id:mcs-host-date-3
  Scenario: [3] The first baseline holds the working directory, the local date of the host and the project instructions
    Given the runtime's host is in the time zone "Pacific/Kiritimati"
    And the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "ok"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    # Kiritimati's date is UTC's until 10:00 UTC, Etc/GMT+12's from 12:00 UTC: a second session
    # started twelve zones west tells a runtime that states UTC's date apart at any hour.
    And the runtime's host is in the time zone "Etc/GMT+12"
    And a session "s2" working in "pkg" of the project "project"
    And the user steers "hello" to session "s2"
    And session "s2" settles
    Then the baseline of request 1 names the local date in "Pacific/Kiritimati"
    And the baseline of request 2 names the local date in "Etc/GMT+12"
    And the baseline of request 1 names the working directory of "s1"
    # checks: EPO-10 INS-01
    And the baseline of request 1 contains, in order:
      | ROOT: run the tests |
