@area:compaction
Feature: SessionPackage1 - Compaction and messages in the Go session package
  A runtime of profile sol compacts as the Go session package does: a summary asked for with the
  compaction prompt, shown to the model as the answer to "What did we do so far?", followed by a
  synthetic continue message; and it converts its messages for the provider without session-level
  metadata, one provider message per tool result.

  @SCP-06 @profile:sol @dialect:openai-chat @id:scp-tool-results-1
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
    And request 2 reads the output of call "call_a" as "alpha"
    And request 2 reads the output of call "call_b" as "beta"

  @SCP-05 @profile:sol @dialect:openai-chat @id:scp-attachment-source-1
  Scenario: [2] The source of an image stays in the session, in the chat dialect
    Given a session "s1"
    And the provider replies "seen"
    When the user steers "look" with an image from "s3://kit-bucket/private-key-7f3a"
    And the session settles
    Then request 1 carries 1 image
    And request 1 does not contain "private-key-7f3a" anywhere

  @SCP-05 @profile:sol @dialect:anthropic-messages @id:scp-attachment-source-2
  Scenario: [3] The source of an image stays in the session, in the messages dialect
    Given a session "s1"
    And the provider replies "seen"
    When the user steers "look" with an image from "s3://kit-bucket/private-key-7f3a"
    And the session settles
    Then request 1 carries 1 image
    And request 1 does not contain "private-key-7f3a" anywhere
