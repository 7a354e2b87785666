package com.example.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The victim: passes alone and in the original order, fails after RegistryTest#registersAdmin. */
class AccountReportTest {
    @Test
    void reportIsEmptyWithoutAccounts() {
        assertEquals("accounts: none", "accounts: " + (Registry.names().isEmpty() ? "none" : Registry.names()));
    }

    @Test
    void headerIsStable() {
        assertEquals("Accounts", "Accounts");
    }
}
