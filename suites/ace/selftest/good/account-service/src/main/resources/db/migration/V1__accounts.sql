CREATE TABLE accounts (
    account_id UUID PRIMARY KEY,
    currency CHAR(3) NOT NULL,
    available_balance NUMERIC(19, 4) NOT NULL CHECK (available_balance >= 0),
    reserved_balance NUMERIC(19, 4) NOT NULL DEFAULT 0 CHECK (reserved_balance >= 0)
);
