<?php
header('Content-Type: text/plain; charset=utf-8');
echo 'Hello World';
