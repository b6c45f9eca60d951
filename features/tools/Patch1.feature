@area:tools
Feature: Patch1 - apply_patch
  A patch adds, updates and deletes files. Every hunk is parsed and every target resolved before
  anything changes; a failure while committing leaves the earlier operations applied and says
  exactly which were applied.

  @TLS-03 @id:tls-patch-1
  Scenario: [1] A patch adds, updates and deletes files
    Given a session "s1"
    And the file "keep.txt" in the workspace "s1" says "one"
    And the file "old.txt" in the workspace "s1" says "bye"
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: new/hello.txt
      +hello
      *** Update File: keep.txt
      @@
      -one
      +two
      *** Delete File: old.txt
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the patch tool
    And call "p1" settled as success
    And the file "new/hello.txt" in the workspace "s1" holds:
      """
      hello
      """
    And the file "keep.txt" in the workspace "s1" holds:
      """
      two
      """
    And the workspace "s1" has no file "old.txt"

  @TLS-03 @id:tls-patch-2
  Scenario: [2] A target that cannot be resolved stops the patch before the first change
    Given a session "s1"
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: added.txt
      +new
      *** Update File: missing.txt
      @@
      -x
      +y
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the patch tool
    And call "p1" settled as error
    And the workspace "s1" has no file "added.txt"

  @TLS-03 @id:tls-patch-3
  Scenario: [3] A malformed later hunk stops the patch before the first change
    Given a session "s1"
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: added.txt
      +new
      *** Update File: added.txt
      this line is not a hunk
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the patch tool
    And call "p1" settled as error
    And the workspace "s1" has no file "added.txt"

  @TLS-03 @id:tls-patch-4
  Scenario: [4] A failure while committing keeps the earlier operations and reports them exactly
    Given a session "s1"
    And the file "x.txt" in the workspace "s1" says "old"
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: a.txt
      +a
      *** Delete File: x.txt
      *** Update File: x.txt
      @@
      -old
      +new
      *** Add File: b.txt
      +b
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the patch tool
    And the patch reached its commit, having added "a.txt" in the workspace "s1"
    And call "p1" settled as error
    And call "p1" reports:
      | outcome     | op     | path  |
      | applied     | add    | a.txt |
      | applied     | delete | x.txt |
      | failed      | update | x.txt |
      | not applied | add    | b.txt |
    # checks: TLS-03 TLS-04
    And the file "a.txt" in the workspace "s1" holds:
      """
      a
      """
    # checks: TLS-03 TLS-04
    And the workspace "s1" has no file "x.txt"
    And the workspace "s1" has no file "b.txt"

  @TLS-04 @id:tls-patch-external-1
  Scenario: [5] A patch reaching outside the working directory is approved before anything changes; refused, nothing changes
    Given a session "s1"
    And the file "notes.txt" in the workspace "s1-sibling" says "one"
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: inside.txt
      +in
      *** Update File: {workspace:s1-sibling}/notes.txt
      @@
      -one
      +two
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the provider has received 1 request
    Then request 1 offers the patch tool
    # checks: TLS-04
    When a tool call waits for permission
    Then the workspace "s1" has no file "inside.txt"
    When the user declines the waiting tool call
    And the session settles
    Then call "p1" was refused, settled as error or interrupted
    And the workspace "s1" has no file "inside.txt"
    And the file "notes.txt" in the workspace "s1-sibling" holds:
      """
      one
      """

  @TLS-04 @id:tls-patch-external-2
  Scenario: [6] One approval covers every external target of the patch
    Given a session "s1"
    And the file "notes.txt" in the workspace "s1-sibling" says "one"
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: inside.txt
      +in
      *** Update File: {workspace:s1-sibling}/notes.txt
      @@
      -one
      +two
      *** Add File: {workspace:s1-sibling}/extra.txt
      +more
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the provider has received 1 request
    Then request 1 offers the patch tool
    # checks: TLS-04
    When a tool call waits for permission
    And the user approves the waiting tool call
    # checks: TLS-04
    And the session settles
    Then call "p1" settled as success
    And the file "inside.txt" in the workspace "s1" holds:
      """
      in
      """
    And the file "notes.txt" in the workspace "s1-sibling" holds:
      """
      two
      """
    And the file "extra.txt" in the workspace "s1-sibling" holds:
      """
      more
      """

  @TLS-04 @id:tls-patch-external-3
  Scenario: [7] An approved external target that does not exist stops the patch before the first change
    Given a session "s1"
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: inside.txt
      +in
      *** Delete File: {workspace:s1-sibling}/missing.txt
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the provider has received 1 request
    Then request 1 offers the patch tool
    # Asking is (a)'s: a runtime that checks the targets before it asks stops the patch unasked.
    # checks: TLS-04
    When the user approves the tool call waiting for permission, if the session asks before it settles
    And the session settles
    Then call "p1" settled as error
    And the workspace "s1" has no file "inside.txt"

  @TLS-04 @id:tls-patch-hunks-1
  Scenario: [8] An update whose later hunk does not match its file stops the patch before the first change
    Given a session "s1"
    And the file "keep.txt" in the workspace "s1" has 5 numbered lines
    And the provider calls apply_patch "p1" with:
      """
      *** Begin Patch
      *** Add File: added.txt
      +new
      *** Update File: keep.txt
      @@
      -line 1
      +first
      @@
      -line 9
      +ninth
      *** End Patch
      """
    And the provider replies "done"
    When the user steers "start"
    And the session settles
    Then request 1 offers the patch tool
    And call "p1" settled as error
    And the workspace "s1" has no file "added.txt"
    And the file "keep.txt" in the workspace "s1" holds:
      """
      line 1
      line 2
      line 3
      line 4
      line 5
      """
