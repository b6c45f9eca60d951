@area:checkpoint
Feature: Checkpoint1 - The earlier Context Checkpoint design
  Runtimes that follow the earlier design (profile `checkpoint`) compare rendered text rather
  than values, keep the baseline as keyed parts, start a new epoch on a model switch and treat
  each instruction file as a component of its own. Kit sources render as described in
  features/context/ContextSources1.feature.

  @LEG-01 @profile:checkpoint @id:leg-checkpoint-1 @needs:kit-sources
  Scenario: [1] The checkpoint keeps a hash of each rendered update text, and any change of text is a change
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value '{"a": 1, "b": 2}'
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    # checks: LEG-01
    And the checkpoint holds the hash of 'kit/a.one is now {"a":1,"b":2}' for "kit/a.one"
    When the context source "kit/a.one" has the value '{"b": 2, "a": 1}'
    And the user steers "two"
    And the session settles
    Then the last system message of request 2 is:
      """
      kit/a.one is now {"b":2,"a":1}
      """
    And the checkpoint holds the hash of 'kit/a.one is now {"b":2,"a":1}' for "kit/a.one"

  @LEG-01 @profile:checkpoint @id:leg-checkpoint-1-same @needs:kit-sources
  Scenario: [1s] The same rendered text at the next boundary is no change
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value '{"a": 1, "b": 2}'
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value '{"a": 1, "b": 2}'
    And the user steers "two"
    And the session settles
    Then request 2 has no system message
    When the context source "kit/a.one" has the value '{"a": 1, "b": 3}'
    And the user steers "three"
    And the session settles
    Then the last system message of request 3 is:
      """
      kit/a.one is now {"a":1,"b":3}
      """

  @LEG-02 @profile:checkpoint @id:leg-checkpoint-2 @needs:kit-sources
  Scenario: [2] A model switch starts a new epoch and keeps the chronological history
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the session selects the model "kit-model-2"
    And the context source "kit/a.one" has the value "2"
    And the user steers "two"
    And the session settles
    Then request 2 uses the model "kit-model-2"
    And request 2 has the kit context in its baseline:
      | kit/a.one = 2 |
    And request 2 has the messages:
      | role      | content |
      | user      | one     |
      | assistant | first   |
      | user      | two     |

  @LEG-02 @profile:checkpoint @needs:restart @id:leg-checkpoint-2-provider @needs:kit-sources
  Scenario: [2p] A switch to a provider of another dialect starts a new epoch and keeps the chronological history
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "1"
    And the provider replies "first"
    And the user steers "one"
    And the session settles
    # checks: INB-06
    When the runtime process restarts talking to a provider of another dialect
    # The contributor belongs to the process: it contributes again in the new one.
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
    And the context source "kit/a.one" has the value "2"
    And the provider replies "second"
    And the user steers "two"
    And the session settles
    Then request 1 has the kit context in its baseline:
      | kit/a.one = 2 |
    And request 1 has the messages:
      | role      | content |
      | user      | one     |
      | assistant | first   |
      | user      | two     |

  @LEG-03 @profile:checkpoint @id:leg-checkpoint-3 @needs:kit-sources
  Scenario: [3] Each component of the baseline travels as a system part of its own
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
      | kit/a.two |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/a.two" has the value "2"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then request 1 sends the kit components as separate system parts:
      | kit/a.one = 1 |
      | kit/a.two = 2 |

  @LEG-03 @profile:checkpoint @id:leg-checkpoint-3-kept @needs:kit-sources @needs:restart
  Scenario: [3b] The epoch keeps each component's text whole and apart, a blank line inside one too, and sends it so after a restart
    Given the file "AGENTS.md" in the workspace "s1" says "PROJECT: first paragraph", a blank line, then "PROJECT: second paragraph"
    And a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
      | kit/a.two |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/a.two" has the value "2"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    And the context source "kit/a.one" has the value "5"
    # checks: INB-06
    When the runtime process restarts
    And the user steers "two"
    And the session settles
    Then request 1 sends "PROJECT: first paragraph" and "PROJECT: second paragraph" in one system part
    And request 1 sends the kit components as separate system parts:
      | kit/a.one = 1 |
      | kit/a.two = 2 |
    And request 2 sends the system parts of request 1, each as it was

  @LEG-04 @profile:checkpoint @id:leg-checkpoint-4 @needs:kit-sources
  Scenario: [4] Built-in components come first in declaration order, plugin components follow by key
    Given a session "s1"
    And the contributor "kit/c" contributes the context sources:
      | key       |
      | kit/c.one |
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.zed |
      | kit/a.ant |
    And the context source "kit/c.one" has the value "1"
    And the context source "kit/a.zed" has the value "2"
    And the context source "kit/a.ant" has the value "3"
    And the provider replies "ok"
    When the user steers "hello"
    And the session settles
    Then request 1 sends the kit components as separate system parts:
      | kit/a.ant = 3 |
      | kit/a.zed = 2 |
      | kit/c.one = 1 |
    And the baseline of request 1 begins with its built-in parts

  @LEG-04 @profile:checkpoint @id:leg-checkpoint-4-order
  Scenario: [4o] Built-in components keep their declaration order in a new epoch, whichever of them changed
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the provider replies "fourth"
    And the provider replies "fifth"
    And the user steers "one"
    And the session settles
    When the file "AGENTS.md" in the workspace "project" says "ROOT: run the linter"
    And the user steers "two"
    And the session settles
    And the session selects the model "kit-model-2"
    And the user steers "three"
    And the session settles
    # checks: LEG-04
    Then request 3 sends the built-in parts of request 1 in their order, "ROOT: run the tests" now reading "ROOT: run the linter"
    # Whichever of the two files comes first, one change is of a component that is not the last.
    When the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use spaces"
    And the user steers "four"
    And the session settles
    And the session selects the model "kit-model"
    And the user steers "five"
    And the session settles
    # checks: LEG-04
    Then request 5 sends the built-in parts of request 3 in their order, "PACKAGE: use tabs" now reading "PACKAGE: use spaces"

  @LEG-05 @MCS-05 @profile:checkpoint @id:leg-checkpoint-5 @needs:kit-sources
  Scenario: [5] A system message keeps the keys of the components it announces, with its exact text
    Given a session "s1"
    And the contributor "kit/a" contributes the context sources:
      | key       |
      | kit/a.one |
      | kit/b.one |
    And the context source "kit/a.one" has the value "1"
    And the context source "kit/b.one" has the value "1"
    And the provider replies "first"
    And the provider replies "second"
    And the user steers "one"
    And the session settles
    When the context source "kit/a.one" has the value "2"
    And the context source "kit/b.one" has the value "2"
    And the user steers "two"
    And the session settles
    # checks: MCS-05 MCS-02 LEG-05
    Then the history holds the system message of request 2, hidden from the user transcript
    # checks: LEG-05 MCS-02
    And the history's system message names the sources:
      | kit/a.one |
      | kit/b.one |

  @LEG-07 @profile:checkpoint @id:leg-checkpoint-6
  Scenario: [6] A changed instruction file is restated alone; a removed one is revoked alone
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use tabs"
    And a session "s1" working in "pkg" of the project "project"
    And the provider replies "first"
    And the provider replies "second"
    And the provider replies "third"
    And the user steers "one"
    And the session settles
    When the file "pkg/AGENTS.md" in the workspace "project" says "PACKAGE: use spaces"
    And the user steers "two"
    And the session settles
    Then the last system message of request 2 contains, in order:
      | PACKAGE: use spaces |
    And the last system message of request 2 does not contain "ROOT: run the tests"
    And the last system message of request 2 does not contain "PACKAGE: use tabs"
    When the file "AGENTS.md" in the workspace "project" is deleted
    And the user steers "three"
    And the session settles
    Then the last system message of request 3 is the declared text "instructions.file-revocation" for the file "AGENTS.md" in the workspace "project"

  @LEG-06 @profile:checkpoint @id:leg-checkpoint-7 @needs:manual-compaction
  Scenario: [7] Instructions found beside a file the model read join at the next boundary and stay, across a compaction too
    Given the file "AGENTS.md" in the workspace "project" says "ROOT: run the tests"
    And the file "pkg/deep/AGENTS.md" in the workspace "project" says "NESTED: keep it deep"
    And the file "pkg/deep/notes.txt" in the workspace "project" says "some notes"
    And a session "s1" working in "pkg" of the project "project"
    And the provider calls read "deep/notes.txt"
    And the provider replies "read it"
    And the provider replies "second"
    And the provider summarizes with "SUMMARY: notes were read"
    And the provider replies "third"
    When the user steers "one"
    And the session settles
    Then the baseline of request 1 does not contain "NESTED: keep it deep"
    And the last system message of request 2 contains, in order:
      | NESTED: keep it deep |
    When the user steers "two"
    And the session settles
    # checks: LEG-06 MCS-05
    Then request 3 has 1 system message
    When the user asks for a compaction
    And the user steers "three"
    And the session settles
    Then the baseline of request 5 contains, in order:
      | ROOT: run the tests  |
      | NESTED: keep it deep |


  @LEG-06 @profile:checkpoint @id:leg-checkpoint-8 @needs:restart
  Scenario: [8] Instructions found beside a file the model read stay part of the session across a restart
    Given the file "pkg/deep/AGENTS.md" in the workspace "project" says "NESTED: keep it deep"
    And the file "pkg/deep/notes.txt" in the workspace "project" says "some notes"
    And a session "s1" working in "pkg" of the project "project"
    And the provider calls read "deep/notes.txt"
    And the provider replies "read it"
    And the provider replies "second"
    When the user steers "one"
    And the session settles
    # checks: INB-06
    And the runtime process restarts
    And the user steers "two"
    And the session settles
    Then the provider received 3 requests
    And the last system message of request 2 contains, in order:
      | NESTED: keep it deep |
    # checks: LEG-06 MCS-05
    And request 3 has 1 system message
