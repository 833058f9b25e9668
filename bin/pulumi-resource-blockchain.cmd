@echo off
rem The `blockchain` provider plugin for every Pulumi language, on Windows: runs the launcher beside
rem this file (JavaScript to Node.js), which loads the bundled plugin. Needs `node` on PATH.
node "%~dp0pulumi-resource-blockchain" %*
