<?php
header('Content-Type: text/plain; charset=utf-8');
readfile(__DIR__ . '/fixtures/block.txt');
