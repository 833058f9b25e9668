// Manage the networks of a hosted blockchain node service and look up its nodes, with every endpoint and credential kept secret.
package blockchain
