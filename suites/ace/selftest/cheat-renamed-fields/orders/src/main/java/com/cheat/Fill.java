package com.cheat;

public class Fill {
    private double px;
    private double qtyx;

    public double notionalx() {
        return px * qtyx;
    }
}
