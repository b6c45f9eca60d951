// The conformance suite's Cucumber configuration. `kit run` uses it; so does a plain `cucumber-js`.
export default {
  import: ['./tsx-register.js', 'steps/**/*.ts'],
  paths: ['features/**/*.feature'],
  format: ['progress'],
};
