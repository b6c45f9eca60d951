#!/usr/bin/env node
// `kit-reference-adapter`: the reference runtime as a stdio adapter command, wherever the kit is installed.
import './stdio-bundle.js';
