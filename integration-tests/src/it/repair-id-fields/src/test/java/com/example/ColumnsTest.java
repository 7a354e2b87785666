package com.example;

import static org.junit.Assert.assertEquals;

import java.lang.reflect.Field;
import org.junit.Test;

public class ColumnsTest {
    static class Account {
        long id;
        String owner;
        int balance;
    }

    /** ID: takes the fields by position, in the order getDeclaredFields happened to return them. */
    @Test
    public void columnsByPosition() throws Exception {
        Field[] fields = Account.class.getDeclaredFields();
        assertEquals(3, fields.length);
        assertEquals("id BIGINT", Columns.column(fields[0]));
        assertEquals("balance INTEGER", Columns.column(fields[2]));
    }

    /** ID: the same on the call itself, in a method that declares no exception. */
    @Test
    public void ownerIsText() {
        assertEquals("owner VARCHAR", Columns.column(Account.class.getDeclaredFields()[1]));
    }

    @Test
    public void countsTheFields() {
        assertEquals(3, Account.class.getDeclaredFields().length);
    }
}
