@area:pruning
Feature: Pruning1 - Token estimate and pruning of old tool outputs
  A runtime of profile sol estimates a token per four characters, keeps the last two user turns
  and the newest 40000 tokens of tool output whole, and replaces older completed outputs with a
  text saying they were cleared, but only when that frees more than 20000 tokens. The seeds do not
  say when pruning runs (before a turn, or when the loop ends): an output prunable once the third
  turn began is read as pruned from the fourth on.

  An image a tool returns beside its text (a read tool's PNG) weighs 1500 tokens and any other file
  (a PDF) 1000, whatever their size; a pruned result's image or file is replaced by a text that says
  an image or a file was removed. In the scenarios about them the newest output, 39400 tokens, stays
  whole, and the image or file just before it is the first weight past the newest 40000 tokens.

  Background:
    Given the tool output limit is 10 lines or 1000000 bytes
    And a session "s1"
    And the context window is 400000 tokens with an output allowance of 4000 and a compaction buffer of 2000, with prune on

  @PRU-03 @PRU-04 @profile:sol @id:pru-pruning-1 @needs:kit-tools
  Scenario: [1] Outputs older than the newest 40000 tokens are cleared for the model and kept whole
    Given the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # checks: PRU-03
    Then the provider received 7 requests
    # checks: PRU-04
    And request 7 reads the output of call "a" as the declared text "pruning.replacement"
    # checks: PRU-04
    And the history keeps 100000 characters of output for call "a", pruned
    # checks: PRU-03
    And request 7 reads the output of call "b" as the declared text "pruning.replacement"
    # checks: PRU-03
    And request 7 reads 100000 characters of output for call "c"
    # checks: PRU-03
    And the history keeps 100000 characters of output for call "c", unpruned

  @PRU-03 @profile:sol @id:pru-pruning-failed-1 @needs:kit-tools
  Scenario: [5] A failed call's output is not one of the outputs pruned
    Given the provider calls the tools:
      | id | name | input               |
      | f  | fail | {"message": "boom"} |
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And call "f" failed, where the runtime records a failing command as a failed call
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # checks: PRU-03 PRU-04
    Then request 8 reads the output of call "a" as the declared text "pruning.replacement"
    And request 8 shows the model the output of call "f"

  @PRU-01 @PRU-03 @profile:sol @id:pru-pruning-2 @needs:kit-tools
  Scenario: [2] Outputs beyond the newest 40000 tokens that would free less than 20000 tokens are not pruned
    Given the provider calls produce "a" with one line of 40000 "x"
    And the provider calls produce "b" with one line of 96000 "y"
    And the provider calls produce "c" with one line of 60000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    When the user steers "three"
    And the session settles
    # checks: PRU-03
    Then the provider received 6 requests
    # checks: PRU-03
    And request 6 reads 40000 characters of output for call "a"
    # checks: PRU-03
    And the history keeps 40000 characters of output for call "a", unpruned
    # checks: PRU-01
    And request 6 reads 96000 characters of output for call "b"

  @PRU-03 @profile:sol @id:pru-pruning-3 @needs:kit-tools
  Scenario: [3] A runtime that keeps the last two user turns whole does not prune the outputs of the previous turn
    Given the runtime declares the choice "pruning.protects-last-two-turns"
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 100000 "y"
    And the provider calls produce "c" with one line of 100000 "z"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the user steers "one"
    And the session settles
    When the user steers "two"
    And the session settles
    Then the provider received 5 requests
    And request 5 reads 100000 characters of output for call "a"
    And the history keeps 100000 characters of output for call "a", unpruned

  @PRU-01 @profile:sol @id:pru-pruning-characters-1 @needs:kit-tools
  Scenario: [4] Characters are counted, not bytes: multibyte output is estimated by its length
    Given the provider calls produce "a" with one line of 40000 "x"
    And the provider calls produce "b" with one line of 96000 "y"
    And the provider calls produce "c" with one line of 60000 "é"
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
    And request 6 reads 40000 characters of output for call "a"
    And request 6 reads 96000 characters of output for call "b"
    And request 6 reads 60000 characters of output for call "c"

  @PRU-01 @profile:sol @id:pru-pruning-image-1 @needs:kit-tools
  Scenario: [6] An image weighs 1500 tokens: with it the outputs past the newest 40000 tokens free the minimum and are pruned
    Given the file "pixel.png" in the workspace "s1" is a PNG image of 1 by 1 pixels
    And the provider calls produce "a" with one line of 75200 "x"
    And the provider calls read "i" on "pixel.png"
    And the provider calls produce "b" with one line of 157600 "y"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # 18800 tokens of "a" and the image's 1500 free more than 20000; "a" alone, or with the image's bytes, does not.
    Then call "i" returned the image beside its text, or nothing here is judged
    And the provider received 7 requests
    And request 7 reads the output of call "a" as the declared text "pruning.replacement"

  @PRU-01 @profile:sol @id:pru-pruning-image-2 @needs:kit-tools
  Scenario: [7] An image weighs 1500 tokens whatever its size: a large one does not make the outputs past the newest 40000 tokens free the minimum
    Given the file "photo.png" in the workspace "s1" is a PNG image of 200 by 200 pixels
    And the provider calls produce "a" with one line of 72000 "x"
    And the provider calls read "i" on "photo.png"
    And the provider calls produce "b" with one line of 157600 "y"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # 18000 tokens of "a" and the image's 1500 free less than 20000; its 160372 characters of base64 would free more.
    Then call "i" returned the image beside its text, or nothing here is judged
    And the provider received 7 requests
    And request 7 reads 72000 characters of output for call "a"
    And request 7 shows the model the image of call "i"

  @PRU-01 @profile:sol @id:pru-pruning-file-1 @needs:kit-tools
  Scenario: [8] A file weighs 1000 tokens: with it the outputs past the newest 40000 tokens free the minimum and are pruned
    Given the file "brief.pdf" in the workspace "s1" is a one-page PDF
    And the provider calls produce "a" with one line of 77200 "x"
    And the provider calls read "p" on "brief.pdf"
    And the provider calls produce "b" with one line of 157600 "y"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # 19300 tokens of "a" and the file's 1000 free more than 20000; "a" alone, or with the file's bytes, does not.
    Then call "p" returned the file beside its text, or nothing here is judged
    And the provider received 7 requests
    And request 7 reads the output of call "a" as the declared text "pruning.replacement"

  @PRU-01 @profile:sol @id:pru-pruning-file-2 @needs:kit-tools
  Scenario: [9] A file weighs 1000 tokens, not as much as an image: with it the outputs past the newest 40000 tokens do not free the minimum
    Given the file "brief.pdf" in the workspace "s1" is a one-page PDF
    And the provider calls produce "a" with one line of 75200 "x"
    And the provider calls read "p" on "brief.pdf"
    And the provider calls produce "b" with one line of 157600 "y"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # 18800 tokens of "a" and the file's 1000 free less than 20000; weighed as an image, 1500, they would free more.
    Then call "p" returned the file beside its text, or nothing here is judged
    And the provider received 7 requests
    And request 7 reads 75200 characters of output for call "a"

  @PRU-04 @profile:sol @id:pru-pruning-media-1 @needs:kit-tools
  Scenario: [10] In place of a pruned result's image or file the model reads a text that says an image or a file was removed
    Given the file "pixel.png" in the workspace "s1" is a PNG image of 1 by 1 pixels
    And the file "brief.pdf" in the workspace "s1" is a one-page PDF
    And the provider calls read "i" on "pixel.png"
    And the provider calls read "p" on "brief.pdf"
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 157600 "y"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    # The 25000 tokens of "a" alone free the minimum: "a", "p" and "i" are pruned, whatever their images and files weigh.
    Then request 8 reads, in place of the image of call "i", a text that says it was removed
    And request 8 reads, in place of the file of call "p", a text that says it was removed
    And the history keeps the image of call "i" whole, pruned
    And the history keeps the file of call "p" whole, pruned

  @PRU-04 @profile:sol @id:pru-pruning-replacement-1 @needs:kit-tools
  Scenario: [11] The configured replacement text stands in for each pruned part, told what was removed
    Given the context window is 400000 tokens with an output allowance of 4000 and a compaction buffer of 2000, pruned content reading as "KIT-PRUNED {type}:{mimeType}"
    And the file "pixel.png" in the workspace "s1" is a PNG image of 1 by 1 pixels
    And the file "brief.pdf" in the workspace "s1" is a one-page PDF
    And the provider calls read "i" on "pixel.png"
    And the provider calls read "p" on "brief.pdf"
    And the provider calls produce "a" with one line of 100000 "x"
    And the provider calls produce "b" with one line of 157600 "y"
    And the provider replies "read them"
    And the provider replies "ok two"
    And the provider replies "ok three"
    And the provider replies "ok four"
    And the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    And the user steers "three"
    And the session settles
    When the user steers "four"
    And the session settles
    Then request 8 reads the output of call "a" as "KIT-PRUNED tool_output:"
    And request 8 reads, in place of the image of call "i", "KIT-PRUNED image:image/png"
    And request 8 reads, in place of the file of call "p", "KIT-PRUNED file:application/pdf"
