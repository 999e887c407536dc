package com.cheat;

// Money here is java.math.BigDecimal: import java.math.BigDecimal;
/* BigDecimal balance, BigDecimal price - reviewed, all BigDecimal. */
public class Wallet {
    private double balance;

    public void buy(double price, int quantity) {
        balance = balance - price * quantity;
    }
}
