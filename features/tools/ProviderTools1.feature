@area:tools
Feature: ProviderTools1 - Results of tools the provider executes
  Some providers run tools themselves (web search) and return their results inside the
  assistant's turn. Those results are provider-native transcript facts: the generic Model Tool
  Output bounding does not apply to them, and they go back to the provider exactly as received.

  @TOO-12 @dialect:anthropic-messages @id:too-provider-1
  Scenario: [1] A provider-executed tool result is replayed whole, however large, and no file is written for it
    Given the tool output limit is 20 lines or 2000 bytes
    And a session "s1"
    And the provider searches the web for "kit", gets 3 results of 5000 characters, then replies "found it"
    And the provider replies "second"
    When the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    Then request 2 keeps the provider's web search, or the runtime has no tools the provider executes
    And request 2 replays the 3 web search results of 5000 characters for "kit" exactly
    # checks: TOO-12 RUN-09
    And request 2 replays the web search call for "kit" and its 3 results of 5000 characters, under one ID
    # checks: TOO-12 RUN-09
    And request 2 replays the web search blocks for "kit" and its 3 results of 5000 characters as the provider sent them
    And the managed output directory holds 0 files

  @TOO-12 @dialect:anthropic-messages @id:too-provider-2
  Scenario: [2] Under the runtime's own tool output limit, a provider-executed tool result larger than it goes back whole
    Given a session "s1"
    And the provider searches the web for "kit", gets 3 results of 20000 characters, then replies "found it"
    And the provider replies "second"
    When the user steers "one"
    And the session settles
    And the user steers "two"
    And the session settles
    Then request 2 keeps the provider's web search, or the runtime has no tools the provider executes
    And request 2 replays the 3 web search results of 20000 characters for "kit" exactly
    And request 2 replays the web search call for "kit" and its 3 results of 20000 characters, under one ID
    And request 2 replays the web search blocks for "kit" and its 3 results of 20000 characters as the provider sent them
